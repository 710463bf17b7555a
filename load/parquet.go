package load

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"loadgw/catalog"
	"loadgw/mapping"
	"loadgw/types"
)

// A Parquet body is read as Doris's file scanner reads it: the whole body is
// the file; the load's input columns match the file's top-level fields by
// name, ignoring case (Doris's FieldSchema lower_case_name); an input the
// file lacks takes the column's default, else NULL (FileScanner::
// _fill_missing_columns). Each value becomes the text of its Doris value
// (parquet_value.go), which the mapping then converts as it converts a CSV
// field, so `columns` expressions, where, strict mode and partial updates
// apply unchanged.

// pqKind is how a node's values read.
type pqKind uint8

const (
	pqLeaf pqKind = iota
	pqStruct
	pqList  // a LIST group: its one child is the repeated level
	pqMap   // a MAP group: its one child is the repeated key_value group
	pqEmpty // a group without leaves
)

// pqNode is one element of the file's schema.
type pqNode struct {
	name     string
	kind     pqKind
	optional bool
	repeated bool
	def, rep int // levels when the node is present
	leaf     int // the column index of a leaf
	first    int // the node's leaves are columns [first, end)
	end      int
	children []*pqNode
	// threeLevel: a LIST whose repeated child wraps the element.
	threeLevel bool
	conv       pqConv
}

const pqMaxDepth = 32

// buildPQSchema turns the file's flat schema into a tree, checking its
// shape.
func buildPQSchema(els []format.SchemaElement) (*pqNode, int, error) {
	if len(els) == 0 {
		return nil, 0, corruptParquet("Parquet schema is empty")
	}
	b := &pqBuilder{els: els}
	root, err := b.node(0, 0, 0)
	if err != nil {
		return nil, 0, err
	}
	if b.pos != len(els) {
		return nil, 0, corruptParquet("Parquet schema has %d elements outside its root", len(els)-b.pos)
	}
	return root, b.leaves, nil
}

type pqBuilder struct {
	els    []format.SchemaElement
	pos    int
	leaves int
}

func (b *pqBuilder) node(depth, parentDef, parentRep int) (*pqNode, error) {
	if depth > pqMaxDepth {
		return nil, corruptParquet("Parquet schema nests deeper than %d", pqMaxDepth)
	}
	if b.pos >= len(b.els) {
		return nil, corruptParquet("Parquet schema declares more children than elements")
	}
	el := &b.els[b.pos]
	b.pos++
	n := &pqNode{name: el.Name, def: parentDef, rep: parentRep, first: b.leaves}
	if depth > 0 {
		switch rt, _ := el.RepetitionType.Get(); rt {
		case format.Optional:
			n.optional, n.def = true, parentDef+1
		case format.Repeated:
			n.repeated, n.def, n.rep = true, parentDef+1, parentRep+1
		}
	}
	nc, isGroup := el.NumChildren.Get()
	if _, hasType := el.Type.Get(); hasType && (!isGroup || nc == 0) {
		n.kind, n.leaf = pqLeaf, b.leaves
		b.leaves++
		n.end = b.leaves
		conv, err := leafConv(el)
		if err != nil {
			return nil, err
		}
		n.conv = conv
		return n, nil
	}
	if nc < 0 || int(nc) > len(b.els)-b.pos {
		return nil, corruptParquet("Parquet schema group %s declares %d children", el.Name, nc)
	}
	for i := 0; i < int(nc); i++ {
		c, err := b.node(depth+1, n.def, n.rep)
		if err != nil {
			return nil, err
		}
		n.children = append(n.children, c)
	}
	n.end = b.leaves
	n.kind = pqStruct
	ct, hasCT := el.ConvertedType.Get()
	lt := el.LogicalType.Value
	_, isList := lt.(*format.ListType)
	_, isMap := lt.(*format.MapType)
	isList = isList || (hasCT && ct == deprecated.List)
	isMap = isMap || (hasCT && (ct == deprecated.Map || ct == deprecated.MapKeyValue))
	switch {
	case n.first == n.end:
		n.kind = pqEmpty
	case isList && len(n.children) == 1 && n.children[0].repeated:
		n.kind = pqList
		r := n.children[0]
		// Parquet's LogicalTypes.md backward-compatibility rules: the
		// repeated level is the element itself when it is a leaf, has
		// several fields, or is named array or <list>_tuple.
		n.threeLevel = r.kind != pqLeaf && len(r.children) == 1 && r.name != "array" && r.name != n.name+"_tuple"
	case isMap && len(n.children) == 1 && n.children[0].repeated && n.children[0].kind == pqStruct && len(n.children[0].children) == 2:
		n.kind = pqMap
	}
	return n, nil
}

// parquetSource reads source rows from a Parquet body.
type parquetSource struct {
	body   *fileBody
	file   *parquet.File
	groups []parquet.RowGroup
	gi     int
	rows   parquet.Rows
	batch  []parquet.Row
	bn, bi int
	inputs []*pqNode // per input column, its top-level field, or nil
	// targets are the nested column types the inputs feed directly, or nil.
	targets []*types.Type
	names   []string
	leaves  [][]parquet.Value
	pos     []int
	loc     *time.Location
	texts   textArena
	out     []byte
	raw     []byte
	err     error
}

func newParquetSource(body io.Reader, spillDir string, t *catalog.Table, names []string, loc *time.Location) (*parquetSource, error) {
	fb, err := bufferBody(body, spillDir, pqMemBody)
	if err != nil {
		return nil, err
	}
	s, err := openParquet(fb, t, names, loc)
	if err != nil {
		fb.close()
		return nil, err
	}
	return s, nil
}

func openParquet(fb *fileBody, t *catalog.Table, names []string, loc *time.Location) (*parquetSource, error) {
	if err := checkParquetFooter(fb.r, fb.size); err != nil {
		return nil, err
	}
	f, err := openPQFile(fb)
	if err != nil {
		return nil, corruptParquet("Failed to open the parquet file: %v", err)
	}
	md := f.Metadata()
	root, nleaves, err := buildPQSchema(md.Schema)
	if err != nil {
		return nil, err
	}
	for _, rg := range md.RowGroups {
		if len(rg.Columns) != nleaves {
			return nil, corruptParquet("Parquet row group has %d columns, the schema %d", len(rg.Columns), nleaves)
		}
	}
	if err := checkParquetPages(fb.r, fb.size, md); err != nil {
		return nil, err
	}
	s := &parquetSource{body: fb, file: f, groups: f.RowGroups(), names: names, loc: loc,
		inputs: make([]*pqNode, len(names)), targets: make([]*types.Type, len(names)),
		leaves: make([][]parquet.Value, nleaves), pos: make([]int, nleaves)}
	for i, name := range names {
		if c, _ := t.Column(name); c != nil && c.Type.Nested != nil {
			s.targets[i] = &c.Type // a nested column fed directly: STRUCT fields match by name
		}
		for _, c := range root.children {
			if strings.EqualFold(c.name, name) {
				s.inputs[i] = c
				break
			}
		}
	}
	return s, nil
}

// openPQFile opens the file with the library, which panics on some
// corrupt schemas: a bad body is the client's fault, never the process's.
func openPQFile(fb *fileBody) (f *parquet.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, fmt.Errorf("%v", p)
		}
	}()
	return parquet.OpenFile(fb.r, fb.size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
}

const pqBatchRows = 256

// nextRow returns the next row of the file, or nil at its end.
func (s *parquetSource) nextRow() (parquet.Row, error) {
	for s.bi >= s.bn {
		if s.rows == nil {
			if s.gi >= len(s.groups) {
				return nil, io.EOF
			}
			s.rows = s.groups[s.gi].Rows()
			s.gi++
		}
		if s.batch == nil {
			s.batch = make([]parquet.Row, pqBatchRows)
		}
		n, err := s.rows.ReadRows(s.batch)
		s.bn, s.bi = n, 0
		if err == io.EOF || (err == nil && n == 0) {
			s.rows.Close()
			s.rows = nil
			if n == 0 {
				continue
			}
		} else if err != nil {
			return nil, corruptParquet("Failed to read the parquet file: %v", err)
		}
	}
	r := s.batch[s.bi]
	s.bi++
	return r, nil
}

func (s *parquetSource) next(dst []types.Value) (raw []byte, reason string, err error) {
	defer func() {
		// The library panics on some corrupt pages; a bad body is the
		// client's fault, never the process's.
		if p := recover(); p != nil {
			raw, reason, err = nil, "", corruptParquet("Failed to read the parquet file: %v", p)
		}
	}()
	row, err := s.nextRow()
	if err != nil {
		return nil, "", err
	}
	for c := range s.leaves {
		s.leaves[c], s.pos[c] = s.leaves[c][:0], 0
	}
	for _, v := range row {
		c := v.Column()
		if c < 0 || c >= len(s.leaves) {
			return nil, "", corruptParquet("Parquet value of column %d outside the schema", c)
		}
		s.leaves[c] = append(s.leaves[c], v)
	}
	s.raw = s.raw[:0]
	for i, n := range s.inputs {
		if i > 0 {
			s.raw = append(s.raw, ' ')
		}
		if n == nil {
			dst[i] = mapping.Absent
			s.raw = append(s.raw, "NULL"...)
			continue
		}
		s.out = s.out[:0]
		null := s.writeNode(n, false, s.targets[i])
		if s.err != nil {
			err := s.err
			s.err = nil
			return nil, "", err
		}
		if null {
			dst[i] = types.NullValue
			s.raw = append(s.raw, "NULL"...)
			continue
		}
		dst[i] = types.NewString(types.String, s.texts.str(s.out))
		s.raw = append(s.raw, s.out...)
	}
	return s.raw, "", nil
}

// release closes the file and removes a spilled body.
func (s *parquetSource) release() {
	if s.rows != nil {
		s.rows.Close()
		s.rows = nil
	}
	s.body.close()
}

var errPQLevels = errors.New("parquet levels do not match the schema")

// peek returns the next value of n's first leaf.
func (s *parquetSource) peek(n *pqNode) (parquet.Value, bool) {
	c := n.first
	if s.pos[c] >= len(s.leaves[c]) {
		return parquet.Value{}, false
	}
	return s.leaves[c][s.pos[c]], true
}

// skip consumes the one value each leaf of n has when n is absent.
func (s *parquetSource) skip(n *pqNode) {
	for c := n.first; c < n.end; c++ {
		if s.pos[c] >= len(s.leaves[c]) {
			s.fail()
			return
		}
		s.pos[c]++
	}
}

func (s *parquetSource) fail() {
	if s.err == nil {
		s.err = corruptParquet("Failed to read the parquet file: %v", errPQLevels)
	}
}

// writeNode appends the text of field n and tells whether it is NULL.
// Nested values are written as Doris's text forms of ARRAY, MAP and STRUCT;
// tt, when known, is the type the value loads into, whose STRUCT fields
// take the file's fields of the same name, ignoring case, as Doris's
// StructColumnReader matches them (a field the file lacks is NULL).
func (s *parquetSource) writeNode(n *pqNode, nested bool, tt *types.Type) (null bool) {
	if s.err != nil {
		return true
	}
	if n.kind == pqEmpty {
		if nested {
			s.out = append(s.out, "null"...)
		}
		return true
	}
	if n.repeated { // a bare repeated field is a list of its instances
		s.out = append(s.out, '[')
		s.each(n, func() { s.writeInstance(n, true, elemType(tt, types.Array)) })
		s.out = append(s.out, ']')
		return false
	}
	if n.optional {
		v, ok := s.peek(n)
		if !ok {
			s.fail()
			return true
		}
		if v.DefinitionLevel() < n.def {
			s.skip(n)
			if nested {
				s.out = append(s.out, "null"...)
			}
			return true
		}
	}
	return s.writeInstance(n, nested, tt)
}

// elemType is the element type of tt when tt is of kind k, else nil.
func elemType(tt *types.Type, k types.Kind) *types.Type {
	if tt == nil || tt.Kind != k || tt.Nested == nil {
		return nil
	}
	return &tt.Nested.Elem
}

// each calls write for every instance of the repeated node n, writing the
// separators.
func (s *parquetSource) each(n *pqNode, write func()) {
	v, ok := s.peek(n)
	if !ok {
		s.fail()
		return
	}
	if v.DefinitionLevel() < n.def { // no instance
		s.skip(n)
		return
	}
	for i := 0; s.err == nil; i++ {
		if i > 0 {
			s.out = append(s.out, ", "...)
		}
		before := s.pos[n.first]
		write()
		if s.pos[n.first] == before {
			s.fail() // no progress: the levels are corrupt
			return
		}
		v, ok := s.peek(n)
		if !ok || v.RepetitionLevel() != n.rep {
			return
		}
	}
}

// writeInstance appends one present instance of n.
func (s *parquetSource) writeInstance(n *pqNode, nested bool, tt *types.Type) (null bool) {
	switch n.kind {
	case pqLeaf:
		c := n.leaf
		if s.pos[c] >= len(s.leaves[c]) {
			s.fail()
			return true
		}
		v := s.leaves[c][s.pos[c]]
		s.pos[c]++
		if v.IsNull() {
			if nested {
				s.out = append(s.out, "null"...)
			}
			return true
		}
		var ok bool
		if s.out, ok = n.conv.appendText(s.out, v, s.loc, nested); !ok {
			if nested {
				s.out = append(s.out, "null"...)
			}
			return true
		}
	case pqList:
		r := n.children[0]
		s.out = append(s.out, '[')
		et := elemType(tt, types.Array)
		s.each(r, func() {
			if n.threeLevel {
				s.writeNode(r.children[0], true, et)
			} else {
				s.writeInstance(r, true, et)
			}
		})
		s.out = append(s.out, ']')
	case pqMap:
		kv := n.children[0]
		s.out = append(s.out, '{')
		kt, vt := elemType(tt, types.Map), (*types.Type)(nil)
		if kt != nil {
			vt = &tt.Nested.Value
		}
		s.each(kv, func() {
			s.writeNode(kv.children[0], true, kt)
			s.out = append(s.out, ':')
			s.writeNode(kv.children[1], true, vt)
		})
		s.out = append(s.out, '}')
	case pqStruct:
		if tt != nil && tt.Kind == types.Struct && tt.Nested != nil {
			s.writeStructByName(n, tt.Nested.Fields)
			break
		}
		s.out = append(s.out, '{')
		for i, c := range n.children {
			if i > 0 {
				s.out = append(s.out, ", "...)
			}
			s.writeNode(c, true, nil)
		}
		s.out = append(s.out, '}')
	default:
		panic(fmt.Sprintf("BUG: parquet node kind %d", n.kind))
	}
	return false
}

// writeStructByName writes the struct n in the order of fields, each from
// the file's field of the same name; the file's other fields are read and
// dropped.
func (s *parquetSource) writeStructByName(n *pqNode, fields []types.StructField) {
	used := make([]bool, len(n.children))
	s.out = append(s.out, '{')
	for i := range fields {
		if i > 0 {
			s.out = append(s.out, ", "...)
		}
		found := false
		for j, c := range n.children {
			if !used[j] && strings.EqualFold(c.name, fields[i].Name) {
				used[j], found = true, true
				s.writeNode(c, true, &fields[i].Type)
				break
			}
		}
		if !found {
			s.out = append(s.out, "null"...)
		}
	}
	s.out = append(s.out, '}')
	for j, c := range n.children {
		if !used[j] {
			mark := len(s.out)
			s.writeNode(c, true, nil)
			s.out = s.out[:mark]
		}
	}
}
