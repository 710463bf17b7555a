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
	if err := setSeparators(&opts, p); err != nil {
		return nil, err
	}
	return &csvSource{r: csvline.NewReader(body, opts), opts: opts, n: n}, nil
}

func (s *csvSource) next(dst []types.Value) ([]byte, string, error) {
	fields, line, err := s.r.Next()
	if err != nil {
		return nil, "", readError(err)
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

// setSeparators sets opts' column and line separators from the load's
// headers (CSV and hive_text), leaving opts' defaults where a header is
// absent.
func setSeparators(opts *csvline.Options, p *Params) error {
	var err error
	if p.ColumnSeparator != "" {
		if opts.ColumnSeparator, err = csvline.ParseSeparator(p.ColumnSeparator); err != nil {
			return analysisError("%s", err.Error())
		}
	}
	if p.LineDelimiter != "" {
		if opts.LineDelimiter, err = csvline.ParseSeparator(p.LineDelimiter); err != nil {
			return analysisError("%s", err.Error())
		}
	}
	return nil
}

// readError is the load error of a failed csvline read: io.EOF and load
// errors as they are, anything else an internal error (a line over the
// limit is the client's).
func readError(err error) error {
	if err == io.EOF {
		return err
	}
	var le *Error
	if errors.As(err, &le) {
		return err
	}
	return &Error{Code: CodeInternalError, Msg: err.Error(), Err: err, Client: errors.Is(err, csvline.ErrLineTooLong)}
}
