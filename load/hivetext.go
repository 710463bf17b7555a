package load

import (
	"io"

	"loadgw/csvline"
	"loadgw/types"
)

// hiveTextSource reads a format=hive_text body as Doris's TextReader does
// (be/src/vec/exec/format/text/text_reader.cpp): lines split at
// column_separator, "\001" by default (TextFileFormatProperties); no
// enclose, escape or quote trimming; an empty field is NULL (the stream
// load sets no null_format, and TextReader compares each field with that
// empty one); `\N` is an ordinary string; no UTF-8 check ("text file do
// not need utf8 check"). skip_lines and line_delimiter apply as for CSV,
// and a line with the wrong number of fields is filtered with the CSV
// reader's text.
type hiveTextSource struct {
	r     *csvline.Reader
	opts  csvline.Options
	n     int
	texts textArena
}

func newHiveTextSource(body io.Reader, p *Params, n, maxLine int) (*hiveTextSource, error) {
	opts := csvline.Options{
		ColumnSeparator: []byte{1},
		SkipLines:       p.SkipLines,
		MaxLineBytes:    maxLine,
	}
	if err := setSeparators(&opts, p); err != nil {
		return nil, err
	}
	return &hiveTextSource{r: csvline.NewReader(body, opts), opts: opts, n: n}, nil
}

func (s *hiveTextSource) next(dst []types.Value) ([]byte, string, error) {
	fields, line, err := s.r.Next()
	if err != nil {
		return nil, "", readError(err)
	}
	if len(fields) != s.n {
		return line, csvline.ColumnCountMismatch(s.n, len(fields), s.opts), nil
	}
	for i, f := range fields {
		if len(f) == 0 {
			dst[i] = types.NullValue
		} else {
			dst[i] = types.NewString(types.String, s.texts.str(f))
		}
	}
	return line, "", nil
}
