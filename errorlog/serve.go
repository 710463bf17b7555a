package errorlog

import (
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// libevent's default Content-Type of Doris BE replies without one.
const eventContentType = "text/html; charset=ISO-8859-1"

// Serve answers GET and HEAD /api/_load_error_log?file=<name> as Doris's
// DownloadAction in ERROR_LOG mode (be/src/http/action/download_action.cpp):
//
//   - no file parameter: 200 "parameter file not specified in url."
//   - Dir/<file> does not resolve: 500 "[NOT_FOUND]failed to canonicalize
//     <path>: No such file or directory" (other errors: their code and text)
//   - it resolves outside Dir: 401 "[NOT_AUTHORIZED]file path is not allowed: <path>"
//   - a directory: 200 "error log can only be file."
//   - a path containing "..": 403, libevent's error page
//   - else 200 with the file's bytes (HEAD: only Content-Length),
//     Content-Type "text/plain; charset=utf-8".
//
// <path> is the canonical Dir, "/" and the file parameter, unresolved.
// (Doris may append a stack trace to the 401 text; loadgw does not.)
func (l *Log) Serve(w http.ResponseWriter, r *http.Request) {
	file := r.URL.Query().Get("file")
	if file == "" {
		reply(w, r, http.StatusOK, "parameter file not specified in url.")
		return
	}
	path := l.Path(file)
	canon, err := canonical(path)
	if err != nil {
		reply(w, r, http.StatusInternalServerError, fsError(err, "failed to canonicalize "+path))
		return
	}
	if !containPath(l.root, canon) {
		reply(w, r, http.StatusUnauthorized, "[NOT_AUTHORIZED]file path is not allowed: "+path)
		return
	}
	st, err := os.Stat(path)
	if err != nil { // removed meanwhile
		msg := fsError(err, "failed to canonicalize "+path)
		status := http.StatusInternalServerError
		if strings.HasPrefix(msg, "[NOT_FOUND]") || strings.HasPrefix(msg, "[IO_ERROR]") {
			status = http.StatusNotFound
		}
		reply(w, r, status, msg)
		return
	}
	if st.IsDir() {
		reply(w, r, http.StatusOK, "error log can only be file.")
		return
	}
	serveFile(w, r, path)
}

// serveFile is Doris's do_file_response.
func serveFile(w http.ResponseWriter, r *http.Request, path string) {
	if strings.Contains(path, "..") {
		sendError(w, http.StatusForbidden)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		sendError(w, http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		sendError(w, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", contentType(path))
	w.Header().Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = io.CopyN(w, f, st.Size())
	}
}

// contentType is Doris's get_content_type by file extension.
func contentType(path string) string {
	switch filepath.Ext(path) {
	case ".html", ".htm":
		return "text/html; charset=utf-8"
	case ".js":
		return "application/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	}
	return "text/plain; charset=utf-8"
}

// containPath is LocalFileSystem::contain_path: sub is parent or a file in
// parent or below it.
func containPath(parent, sub string) bool {
	parent, sub = filepath.Clean(parent), filepath.Clean(sub)
	if parent == sub {
		return true
	}
	dir := filepath.Dir(sub)
	return dir == parent || strings.HasPrefix(dir, strings.TrimSuffix(parent, "/")+"/")
}

// fsError renders a file system error as Doris's localfs_error status:
// "[<code>]<msg>: <strerror>".
func fsError(err error, msg string) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return "[INTERNAL_ERROR]" + msg + ": " + err.Error()
	}
	code := "INTERNAL_ERROR"
	switch {
	case errno == syscall.EIO:
		code = "IO_ERROR"
	case errors.Is(err, fs.ErrNotExist):
		code = "NOT_FOUND"
	case errno == syscall.EEXIST:
		code = "ALREADY_EXIST"
	case errno == syscall.EACCES:
		code = "E-256" // PERMISSION_DENIED
	case errno == syscall.ENOTEMPTY:
		code = "DIRECTORY_NOT_EMPTY"
	}
	return "[" + code + "]" + msg + ": " + strerror(errno)
}

// strerror is glibc's text of errno: Go's text with a capital letter.
func strerror(errno syscall.Errno) string {
	s := errno.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// reply is HttpChannel::send_reply with content: gzip (level 1) when the
// client lists "gzip" in Accept-Encoding, libevent's default Content-Type.
func reply(w http.ResponseWriter, r *http.Request, status int, body string) {
	w.Header().Set("Content-Type", eventContentType)
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(status)
		zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		_, _ = io.WriteString(zw, body)
		_ = zw.Close()
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func acceptsGzip(h string) bool {
	for _, e := range strings.Split(h, ",") {
		if strings.TrimSpace(e) == "gzip" {
			return true
		}
	}
	return false
}

// sendError is libevent's evhttp_send_error page, as HttpChannel::send_error.
func sendError(w http.ResponseWriter, status int) {
	reason := http.StatusText(status)
	body := "<HTML><HEAD>\n<TITLE>" + strconv.Itoa(status) + " " + reason +
		"</TITLE>\n</HEAD><BODY>\n<H1>" + reason + "</H1>\n</BODY></HTML>\n"
	w.Header().Set("Connection", "close")
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
