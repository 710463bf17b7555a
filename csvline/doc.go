// Package csvline is the CSV half of stream load: it turns a body stream into
// records of fields exactly as Apache Doris's BE CSV reader does
// (be/src/vec/exec/format/csv/csv_reader.cpp over
// be/src/vec/exec/format/file_reader/new_plain_text_line_reader.cpp), and
// nothing more: it knows no types and no tables.
//
// # Guarantees
//
// Streaming and bounded: a Reader holds one buffer (Options.BufferSize,
// growing only while a single record needs it, up to about
// Options.MaxLineBytes) and never the whole body. A record longer than
// Options.MaxLineBytes fails the read with ErrLineTooLong.
//
// Allocation-free in the steady state: the fields and raw line returned by
// Reader.Next are slices into internal buffers, valid until the next call.
//
// # Doris semantics reproduced
//
//   - Lines end at Options.LineDelimiter (plain bytes, multi-byte allowed).
//     When the delimiter is exactly "\n", "\r\n" also ends a line and the
//     '\r' is dropped (Doris's keep_carriage_return session variable is false
//     for stream load). A last line without a delimiter is a record; a final
//     delimiter does not add an empty record.
//   - Empty lines are skipped: they are not records (Doris's
//     read_csv_empty_line_as_null is false for stream load), but they do
//     count as lines for skip_lines and the header.
//   - Header lines (csv_with_names: 1, csv_with_names_and_types: 2) replace
//     skip_lines; they are skipped (mapping stays positional) and their names
//     are kept for Reader.Header.
//   - A UTF-8 byte order mark is dropped from the start of the first line.
//   - Without an enclose character, a line is split at every column
//     separator (leftmost, non-overlapping for multi-byte separators); quotes
//     and escapes do not protect separators.
//   - With an enclose character, a field that starts with it runs to the
//     matching unescaped enclose and may contain separators and line
//     delimiters; inside it a doubled enclose ("") and an escaped enclose
//     (\" with escape \) do not close it. A field that starts and ends with
//     the enclose character loses both. Text after a closing enclose up to
//     the next separator stays in the field (`"ab"c` -> `"ab"c`), as in
//     Doris. A body that ends inside an open enclose makes the rest of the
//     body one record.
//   - Values then go through Doris's nullable-string step
//     (CsvReader::_deserialize_nullable_string): empty_field_as_null, then
//     trim_double_quotes (strips one outer pair of '"'; a value so trimmed
//     is never NULL), then the NULL literal \N, then — only when an escape
//     character is set — escape removal (escape_string_for_csv): the escape
//     character is dropped and the next byte kept, and a doubled enclose
//     becomes one. Without an escape character "" stays "".
//
// Reader.IsNull reports Doris's NULL decision, which must be made between
// trim_double_quotes and escape removal and so cannot be made by a caller
// looking at the decoded value: a NULL field is returned as its raw text
// (`\N`, or empty with empty_field_as_null).
//
// # Deliberate divergences (Doris bugs not reproduced)
//
//   - Doris strips a byte order mark from the first line of every batch of
//     ~4k rows, and with an enclose character it strips it after the
//     separator positions were computed, misplacing the fields of that line;
//     csvline strips it once, before scanning, from the body's first line.
//   - Doris's enclose scanner misses a "\r\n" that straddles two reads of
//     the body; csvline treats "\r\n" the same wherever it falls.
//   - Separators that overlap the line delimiter (e.g. ",\n" with "\n") are
//     matched only when they end before the delimiter starts.
package csvline
