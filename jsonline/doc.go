// Package jsonline reads the rows of a Doris Stream Load JSON body: for each
// row, the values of a given list of wanted columns, as text with their JSON
// kind. It knows nothing of types or tables; converting values and checking
// NOT NULL columns is the caller's job.
//
// It reproduces Apache Doris's BE reader (NewJsonReader over simdjson
// On-Demand, be/src/vec/exec/format/json/new_json_reader.cpp, and
// JsonFunctions for json paths, Doris master of January 2026 with simdjson
// 3.11.6), including which problems filter a row (*RowError, with Doris's
// exact reason and src line) and which fail the load (*Error):
//
//   - Keys match column names exactly (case-sensitive) after unescaping; the
//     first occurrence of a duplicate key wins; other keys are ignored, and
//     their values are skipped by counting brackets, not validated.
//   - Field values: strings unescaped, numbers as written (not validated,
//     num_as_string has no effect), booleans as "1"/"0", null as Kind Null,
//     objects and arrays as their raw text.
//   - A row with none of the wanted keys is filtered ("There is no column
//     matching jsonpaths ..."), with the object text as src line.
//   - Malformed documents are filtered with simdjson's code and message:
//     "Parse json data for JsonDoc failed. code: <c>, error info: <e>" for
//     errors of simdjson's first stage (unclosed string, control character,
//     no token, bad UTF-8, bad first byte), "Parse json data failed. code:
//     <c>, error info: <e>" for errors met while iterating. The src line is
//     the whole document. In an array document any such error drops every
//     row of the document.
//   - The shape errors of strip_outer_array and json_root lookups filter the
//     document (Doris counts them as filtered rows); only an invalid
//     jsonpaths/json_root, a line or body over its limit, and (with
//     strip_outer_array) a json path Doris cannot evaluate fail the load.
//   - Empty lines are skipped; a line of whitespace (or only a UTF-8 BOM) is
//     an EMPTY document error; a BOM is stripped from each document; "\r\n"
//     ends a line like "\n".
//   - Content after the root object or array is ignored when the document
//     still ends with '}' (or ']'), as simdjson's check_root_object does: a
//     body of several objects read without read_json_by_line loads only the
//     first one, like Doris.
//
// Where Doris's lazy parser depends on the state of its buffers (the byte
// after the document) the reader takes the common case. It has no nesting
// limit (simdjson's is 1024) since it never recurses.
//
// Performance: one pass over each line with a hand-written tokenizer, no
// allocation per row in the steady state; Field texts point into the read
// buffer unless a string has escapes. Array documents are read twice (a dry
// run first, because Doris drops the whole document when one element is
// malformed) and are held in memory whole, as in Doris.
package jsonline
