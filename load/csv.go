package load

import (
	"errors"
	"io"

	"loadgw/csvline"
	"loadgw/types"
)

// csvSource reads source rows from a CSV body: fields by position.
type csvSource struct {
	r     *csvline.Reader
	opts  csvline.Options
	n     int // source columns
	texts textArena
}

func newCSVSource(body io.Reader, p *Params, n, maxLine int) (*csvSource, error) {
	opts := csvline.Options{
		Enclose:          p.Enclose,
		Escape:           p.Escape,
		TrimDoubleQuotes: p.TrimDoubleQuotes,
		EmptyFieldAsNull: p.EmptyFieldAsNull,
		SkipLines:        p.SkipLines,
		HeaderLines:      p.HeaderLines,
		MaxLineBytes:     maxLine,
	}
	var err error
	if p.ColumnSeparator != "" {
		if opts.ColumnSeparator, err = csvline.ParseSeparator(p.ColumnSeparator); err != nil {
			return nil, analysisError("%s", err.Error())
		}
	}
	if p.LineDelimiter != "" {
		if opts.LineDelimiter, err = csvline.ParseSeparator(p.LineDelimiter); err != nil {
			return nil, analysisError("%s", err.Error())
		}
	}
	return &csvSource{r: csvline.NewReader(body, opts), opts: opts, n: n}, nil
}

func (s *csvSource) next(dst []types.Value) ([]byte, string, error) {
	fields, line, err := s.r.Next()
	if err != nil {
		if err == io.EOF {
			return nil, "", err
		}
		var le *Error
		if errors.As(err, &le) {
			return nil, "", err
		}
		return nil, "", &Error{Code: CodeInternalError, Msg: err.Error(), Err: err, Client: errors.Is(err, csvline.ErrLineTooLong)}
	}
	if !csvline.ValidEncoding(line) {
		return line, csvline.ReasonInvalidEncoding, nil
	}
	if len(fields) != s.n {
		return line, csvline.ColumnCountMismatch(s.n, len(fields), s.opts), nil
	}
	for i, f := range fields {
		if s.r.IsNull(i) {
			dst[i] = types.NullValue
		} else {
			dst[i] = types.NewString(types.String, s.texts.str(f))
		}
	}
	return line, "", nil
}
