package errorlog

import (
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// libevent's default Content-Type of Doris BE replies without one.
const eventContentType = "text/html; charset=ISO-8859-1"

// logNameRE is the naming scheme of Writer.create: a shard directory and an
// error log file in it. Nothing else is ever served.
var logNameRE = regexp.MustCompile(`^(__shard_[0-9]{1,4})/(error_log_[^/]+_[0-9a-f]{1,16}_[0-9a-f]{1,16})$`)

// Serve answers GET and HEAD /api/_load_error_log?file=<name> as Doris's
// DownloadAction in ERROR_LOG mode (be/src/http/action/download_action.cpp)
// and do_file_response (be/src/http/utils.cpp):
//
//   - no file parameter: 200 "parameter file not specified in url."
//   - an error log written by a Writer: 200 with the file's bytes (HEAD:
//     only Content-Length), Content-Type "text/plain; charset=utf-8".
//   - any other name: 404 with libevent's error page, Doris's answer when
//     the file cannot be opened.
//
// Unlike Doris, every name that is not an error log gets that same 404:
// a missing file, a name outside the naming scheme, "..", a directory, a
// symbolic link (at any level) and a special file alike, so that answers
// tell nothing about the file system. No answer contains a server path.
// Names are resolved in Dir component by component without following
// links (os.Root plus an Lstat-before-open identity check), so a link
// swapped in after the check is refused too.
func (l *Log) Serve(w http.ResponseWriter, r *http.Request) {
	file := r.URL.Query().Get("file")
	if file == "" {
		reply(w, r, http.StatusOK, "parameter file not specified in url.")
		return
	}
	f, size, ok := l.open(file)
	if !ok {
		sendError(w, http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = io.CopyN(w, f, size)
	}
}

// open opens the error log called name and returns it with its size, or
// ok=false when name is not an error log file in Dir.
func (l *Log) open(name string) (f *os.File, size int64, ok bool) {
	m := logNameRE.FindStringSubmatch(name)
	if m == nil {
		return nil, 0, false
	}
	root, err := os.OpenRoot(l.root)
	if err != nil {
		return nil, 0, false
	}
	defer root.Close()
	shard, ok := openDir(root, m[1])
	if !ok {
		return nil, 0, false
	}
	defer shard.Close()
	return openFile(shard, m[2])
}

// openDir opens the directory name in root; name must be a directory
// itself, not a link to one.
func openDir(root *os.Root, name string) (*os.Root, bool) {
	before, err := root.Lstat(name)
	if err != nil || !before.IsDir() {
		return nil, false
	}
	dir, err := root.OpenRoot(name)
	if err != nil {
		return nil, false
	}
	opened, err := dir.Stat(".")
	if err != nil || !os.SameFile(before, opened) {
		dir.Close()
		return nil, false
	}
	return dir, true
}

// openFile opens the regular file name in dir; a link, a directory or a
// special file is refused. O_NONBLOCK keeps a FIFO swapped in after the
// Lstat from blocking the open; the identity check then refuses it.
func openFile(dir *os.Root, name string) (*os.File, int64, bool) {
	before, err := dir.Lstat(name)
	if err != nil || !before.Mode().IsRegular() {
		return nil, 0, false
	}
	if testHookBeforeOpen != nil {
		testHookBeforeOpen(name)
	}
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, false
	}
	opened, err := f.Stat()
	if err != nil || !opened.Mode().IsRegular() || !os.SameFile(before, opened) {
		f.Close()
		return nil, 0, false
	}
	return f, opened.Size(), true
}

// testHookBeforeOpen, when set by a test, runs between the Lstat and the
// open of a file, to swap the file meanwhile.
var testHookBeforeOpen func(name string)

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
