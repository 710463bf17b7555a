package mysqlwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"loadgw/types"
)

// Packets of a binary-protocol result set written straight into one
// buffer, byte for byte as the library writes them from a sqltypes.Result
// (writeColumnDefinition, writeBinaryRow, val2MySQL, writeEndResult), but
// from the engine's values and without a packet or value allocated per
// query. TestFastExecMatchesLibrary compares the two over the wire.

// packetWriter appends MySQL packets to buf; seq is the next sequence
// number. A payload of 16 MiB - 1 bytes or more is split as the protocol
// requires.
type packetWriter struct {
	buf []byte
	seq byte
}

// begin starts a packet; end fills in its header.
func (w *packetWriter) begin() int {
	at := len(w.buf)
	w.buf = append(w.buf, 0, 0, 0, 0)
	return at
}

func (w *packetWriter) end(at int) {
	n := len(w.buf) - at - 4
	if n >= maxPayload {
		w.split(at)
		return
	}
	w.buf[at], w.buf[at+1], w.buf[at+2], w.buf[at+3] = byte(n), byte(n>>8), byte(n>>16), w.seq
	w.seq++
}

// split rewrites the packet at at as a chain of maxPayload-sized packets
// ending in a shorter one (an empty one when the payload is a multiple).
func (w *packetWriter) split(at int) {
	payload := append([]byte(nil), w.buf[at+4:]...)
	w.buf = w.buf[:at]
	for {
		n := min(len(payload), maxPayload)
		w.buf = append(w.buf, byte(n), byte(n>>8), byte(n>>16), w.seq)
		w.buf = append(w.buf, payload[:n]...)
		w.seq++
		payload = payload[n:]
		if n < maxPayload {
			return
		}
	}
}

func appendLenEncInt(b []byte, n uint64) []byte {
	switch {
	case n < 251:
		return append(b, byte(n))
	case n < 1<<16:
		return append(b, 0xfc, byte(n), byte(n>>8))
	case n < 1<<24:
		return append(b, 0xfd, byte(n), byte(n>>8), byte(n>>16))
	}
	b = append(b, 0xfe)
	return binary.LittleEndian.AppendUint64(b, n)
}

func appendLenEncString(b []byte, s string) []byte {
	return append(appendLenEncInt(b, uint64(len(s))), s...)
}

// appendColumnDefinition is the payload of the library's
// writeColumnDefinition(f, false).
func appendColumnDefinition(b []byte, f *querypb.Field) []byte {
	typ, flags := sqltypes.TypeToMySQL(f.Type)
	if f.Flags != 0 {
		flags = int64(f.Flags)
	}
	b = appendLenEncString(b, "def")
	b = appendLenEncString(b, f.Database)
	b = appendLenEncString(b, f.Table)
	b = appendLenEncString(b, f.OrgTable)
	b = appendLenEncString(b, f.Name)
	b = appendLenEncString(b, f.OrgName)
	b = append(b, 0x0c)
	b = binary.LittleEndian.AppendUint16(b, uint16(f.Charset))
	b = binary.LittleEndian.AppendUint32(b, f.ColumnLength)
	b = append(b, byte(typ))
	b = binary.LittleEndian.AppendUint16(b, uint16(flags))
	b = append(b, byte(f.Decimals), 0, 0)
	return b
}

// appendEOF is an EOF packet's payload.
func appendEOF(b []byte, flags, warnings uint16) []byte {
	b = append(b, 0xfe)
	b = binary.LittleEndian.AppendUint16(b, warnings)
	return binary.LittleEndian.AppendUint16(b, flags)
}

// appendOK is an OK packet's payload (head 0x00), or with head 0xfe the OK
// that ends a result set for a client with CLIENT_DEPRECATE_EOF.
func appendOK(b []byte, head byte, affected, insertID uint64, flags, warnings uint16) []byte {
	b = append(b, head)
	b = appendLenEncInt(b, affected)
	b = appendLenEncInt(b, insertID)
	b = binary.LittleEndian.AppendUint16(b, flags)
	return binary.LittleEndian.AppendUint16(b, warnings)
}

// appendErr is an ERR packet's payload.
func appendErr(b []byte, code uint16, state, msg string) []byte {
	if len(state) != 5 {
		state = "HY000"
	}
	b = append(b, 0xff)
	b = binary.LittleEndian.AppendUint16(b, code)
	b = append(b, '#')
	b = append(b, state...)
	return append(b, msg...)
}

// appendBinaryRow is the payload of the library's writeBinaryRow for row,
// whose values are formatted as appendRow formats them (text is scratch
// space, returned for reuse).
func appendBinaryRow(b []byte, row []types.Value, fs []*querypb.Field, loc *time.Location, text []byte) ([]byte, []byte, error) {
	b = append(b, 0x00)
	bitmap := len(b)
	for range (len(fs) + 7 + 2) / 8 {
		b = append(b, 0)
	}
	for i, v := range row {
		if v.Kind == types.Null {
			b[bitmap+(i+2)/8] |= 1 << uint((i+2)%8)
			continue
		}
		var err error
		if b, text, err = appendBinaryValue(b, v, fs[i].Type, loc, text); err != nil {
			return b, text, err
		}
	}
	return b, text, nil
}

// appendBinaryValue is val2MySQL of the wire value appendRow makes of v.
func appendBinaryValue(b []byte, v types.Value, typ querypb.Type, loc *time.Location, text []byte) ([]byte, []byte, error) {
	// The integer kinds' text is their decimal number: no need to go
	// through it.
	switch {
	case typ == sqltypes.Int64 && v.Kind == types.BigInt:
		return binary.LittleEndian.AppendUint64(b, uint64(v.I)), text, nil
	case typ == sqltypes.Int32 && v.Kind == types.Int && v.I == int64(int32(v.I)):
		return binary.LittleEndian.AppendUint32(b, uint32(v.I)), text, nil
	case typ == sqltypes.Int16 && v.Kind == types.SmallInt && v.I == int64(int16(v.I)):
		return binary.LittleEndian.AppendUint16(b, uint16(v.I)), text, nil
	case typ == sqltypes.Int8 && v.Kind == types.TinyInt && v.I == int64(int8(v.I)):
		return append(b, byte(v.I)), text, nil
	}
	if v.Kind == types.TimestampTZ {
		off := types.ZoneOffset(v.I, loc)
		v = types.Value{Kind: types.DateTime, I: v.I + int64(off)*types.MicrosPerSecond, Scale: v.Scale}
	}
	text = types.AppendFormat(text[:0], v, loc)
	switch typ {
	case sqltypes.Decimal, sqltypes.Text, sqltypes.Blob, sqltypes.VarChar, sqltypes.VarBinary, sqltypes.Char,
		sqltypes.Bit, sqltypes.Enum, sqltypes.Set, sqltypes.Geometry, sqltypes.Binary, sqltypes.TypeJSON:
		return append(appendLenEncInt(b, uint64(len(text))), text...), text, nil
	}
	s := string(text) // short, and it does not escape: strconv clones what it keeps
	switch typ {
	case sqltypes.Int8, sqltypes.Int16, sqltypes.Int32, sqltypes.Int64:
		bits := 64
		switch typ {
		case sqltypes.Int8:
			bits = 8
		case sqltypes.Int16:
			bits = 16
		case sqltypes.Int32:
			bits = 32
		}
		n, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return b, text, err
		}
		return binary.LittleEndian.AppendUint64(b, uint64(n))[:len(b)+bits/8], text, nil
	case sqltypes.Float32:
		f, err := strconv.ParseFloat(s, 32)
		if err != nil && (v.Kind != types.Float && v.Kind != types.Double || !errors.Is(err, strconv.ErrRange)) {
			return b, text, err
		} else if err != nil {
			// The text rounded past the largest float: the value itself.
			// (The library fails here and drops the connection.)
			f = v.F
		}
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f))), text, nil
	case sqltypes.Float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && (v.Kind != types.Float && v.Kind != types.Double || !errors.Is(err, strconv.ErrRange)) {
			return b, text, err
		} else if err != nil {
			f = v.F // as for FLOAT
		}
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(f)), text, nil
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp:
		b, err := appendBinaryDate(b, s)
		return b, text, err
	}
	return b, text, fmt.Errorf("cannot encode a %v value in the binary protocol", typ)
}

var errBadDate = fmt.Errorf("cannot encode a date in the binary protocol: too short")

// appendBinaryDate is val2MySQL's DATE/DATETIME form of the text s:
// "YYYY-MM-DD", "YYYY-MM-DD hh:mm:ss" or with a fraction.
func appendBinaryDate(b []byte, s string) ([]byte, error) {
	num := func(from, to int, bits int) (uint64, error) {
		if to > len(s) {
			return 0, errBadDate
		}
		return strconv.ParseUint(s[from:to], 10, bits)
	}
	var parts [6]uint64
	spans := [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}}
	fields := 0
	switch {
	case len(s) > 19:
		fields = 6
	case len(s) > 10:
		fields = 6
		spans[5][1] = len(s)
	case len(s) > 0:
		fields = 3
		spans[2][1] = len(s)
	default:
		return append(b, 0x00), nil
	}
	for i := range fields {
		bits := 8
		if i == 0 {
			bits = 16
		}
		n, err := num(spans[i][0], spans[i][1], bits)
		if err != nil {
			return b, err
		}
		parts[i] = n
	}
	head := byte(0x04)
	switch {
	case len(s) > 19:
		head = 0x0b
	case fields == 6:
		head = 0x07
	}
	b = append(b, head)
	b = binary.LittleEndian.AppendUint16(b, uint16(parts[0]))
	for _, p := range parts[1:fields] {
		b = append(b, byte(p))
	}
	if len(s) > 19 {
		var frac [6]byte
		n := copy(frac[:], s[20:])
		for i := n; i < 6; i++ {
			frac[i] = '0'
		}
		us, err := strconv.ParseUint(string(frac[:]), 10, 32)
		if err != nil {
			return b, err
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(us))
	}
	return b, nil
}
