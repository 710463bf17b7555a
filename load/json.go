package load

import (
	"errors"
	"io"

	"loadgw/jsonline"
	"loadgw/mapping"
	"loadgw/types"
)

// jsonSource reads source rows from a JSON body: fields by key name (or by
// jsonpaths position).
type jsonSource struct {
	r      *jsonline.Reader
	fields []jsonline.Field
	names  []string
	// notNull[i] tells that source column i feeds a NOT NULL column
	// directly, which Doris's JSON reader checks itself.
	notNull []bool
	texts   textArena
}

func newJSONSource(body io.Reader, p *Params, m *mapping.Mapping, maxLine int, maxBody int64) (*jsonSource, error) {
	names := m.Inputs()
	r, err := jsonline.NewReader(body, names, jsonline.Options{
		ReadByLine:      p.ReadJSONByLine,
		StripOuterArray: p.StripOuterArray,
		JSONRoot:        p.JSONRoot,
		JSONPaths:       p.JSONPaths,
		FuzzyParse:      p.FuzzyParse,
		NumAsString:     p.NumAsString,
		MaxLineBytes:    maxLine,
		MaxBodyBytes:    maxBody,
	})
	if err != nil {
		return nil, jsonError(err)
	}
	return &jsonSource{r: r, fields: make([]jsonline.Field, len(names)), names: names, notNull: m.NotNullInputs()}, nil
}

func (s *jsonSource) next(dst []types.Value) ([]byte, string, error) {
	raw, err := s.r.Next(s.fields)
	if err != nil {
		if err == io.EOF {
			return nil, "", err
		}
		var re *jsonline.RowError
		if errors.As(err, &re) {
			return raw, re.Reason, nil
		}
		return nil, "", jsonError(err)
	}
	for i, f := range s.fields {
		switch {
		case !f.Present:
			if s.notNull[i] {
				// Doris logs these two with an empty src line.
				return nil, "The column `" + s.names[i] + "` is not nullable, but it's not found in jsondata.", nil
			}
			dst[i] = mapping.Absent
		case f.Kind == jsonline.Null:
			if s.notNull[i] {
				return nil, "Json value is null, but the column `" + s.names[i] + "` is not nullable.", nil
			}
			dst[i] = types.NullValue
		default:
			dst[i] = types.NewString(types.String, s.texts.str(f.Text))
		}
	}
	return raw, "", nil
}

// release gives the reader's buffers back. REQUIRES: the load read its
// last row, and kept no slice next returned (fields are copied to strings,
// raw text to the batch).
func (s *jsonSource) release() { s.r.Release() }

// jsonError turns a jsonline error into a load error with its code.
func jsonError(err error) error {
	var je *jsonline.Error
	if errors.As(err, &je) {
		return &Error{Code: je.Code, Msg: je.Msg, Client: true, Err: err}
	}
	return err
}
