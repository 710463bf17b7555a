package bulkload

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/pierrec/lz4/v4"
)

// answer is the part of a stream load's JSON answer the client reads.
type answer struct {
	TxnID             int64  `json:"TxnId"`
	Label             string `json:"Label"`
	Status            string `json:"Status"`
	ExistingJobStatus string `json:"ExistingJobStatus"`
	Message           string `json:"Message"`
	TotalRows         int64  `json:"NumberTotalRows"`
	LoadedRows        int64  `json:"NumberLoadedRows"`
	FilteredRows      int64  `json:"NumberFilteredRows"`
	UnselectedRows    int64  `json:"NumberUnselectedRows"`
	LoadBytes         int64  `json:"LoadBytes"`
	ErrorURL          string `json:"ErrorURL"`
}

// compress encodes data for the compress_type header value kind ("" for
// none).
func compress(kind string, data []byte) ([]byte, error) {
	var b bytes.Buffer
	var w io.WriteCloser
	switch kind {
	case "":
		return data, nil
	case "gz":
		w, _ = gzip.NewWriterLevel(&b, gzip.BestSpeed)
	case "lz4":
		zw := lz4.NewWriter(&b)
		_ = zw.Apply(lz4.CompressionLevelOption(lz4.Fast))
		w = zw
	default:
		return nil, fmt.Errorf("unknown compression %q (gz or lz4)", kind)
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// client sends chunks to one stream load URL.
type client struct {
	http     *http.Client
	url      string
	user     string
	password string
	headers  http.Header
	compress string
	timeout  time.Duration
}

func newClient(o *Options) *client {
	c := &client{url: o.URL(), user: o.User, password: o.Password, headers: o.Headers, compress: o.Compress, timeout: o.RequestTimeout}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = o.Workers * 2
	tr.ExpectContinueTimeout = 5 * time.Second
	c.http = &http.Client{Transport: tr, Timeout: o.RequestTimeout,
		// Doris's FE redirects a stream load to a BE (307): keep the
		// credentials on the other host, as curl --location-trusted.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			req.SetBasicAuth(c.user, c.password)
			return nil
		}}
	return c
}

// send loads one chunk; a transport error is returned as an error, a
// load's answer (whatever its Status) as the answer.
func (c *client) send(ctx context.Context, ch *Chunk) (*answer, error) {
	body, err := compress(c.compress, ch.Data)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range c.headers {
		req.Header[k] = v
	}
	req.SetBasicAuth(c.user, c.password)
	req.Header.Set("label", ch.Label)
	req.Header.Set("Expect", "100-continue")
	if c.compress != "" {
		req.Header.Set("compress_type", c.compress)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("cannot read the answer %q: %w", raw, err)
	}
	return &a, nil
}
