// Package catalog holds loadgw's databases, tables, columns and properties,
// and persists them in the store. The catalog is copy-on-write: a DDL
// statement clones the state, changes the clone, writes it in the same
// synced batch as any data change of the statement, and only then publishes
// it. Readers hold immutable *Table values that never change under them.
package catalog

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"loadgw/storage"
	"loadgw/types"
)

// KeysType is the data model of a table.
type KeysType string

// The table models, spelled as Doris's KeysType.
const (
	DupKeys    KeysType = "DUP_KEYS"
	UniqueKeys KeysType = "UNIQUE_KEYS"
	AggKeys    KeysType = "AGG_KEYS"
)

// Hidden column names, as Doris spells them.
const (
	DeleteSignCol = "__DORIS_DELETE_SIGN__"
	VersionCol    = "__DORIS_VERSION_COL__"
	SequenceCol   = "__DORIS_SEQUENCE_COL__"
	SkipBitmapCol = "__DORIS_SKIP_BITMAP_COL__"
	CommitTSOCol  = "__DORIS_COMMIT_TSO_COL__"
	TTLCol        = "__DORIS_TTL_COL__"
)

// DefaultKind tells what a column DEFAULT is.
type DefaultKind uint8

// The kinds of column default.
const (
	DefaultLiteral DefaultKind = iota + 1
	DefaultNull
	DefaultCurrentTimestamp
	DefaultCurrentDate
	DefaultBitmapEmpty
)

// Default is a column's DEFAULT clause.
type Default struct {
	Kind DefaultKind
	// Text is the literal's text for DefaultLiteral.
	Text string `json:",omitempty"`
	// Precision is p of CURRENT_TIMESTAMP(p).
	Precision int `json:",omitempty"`
	// Expr names the expression a DefaultLiteral came from (PI, E), which
	// SHOW CREATE TABLE prints unquoted as Doris does; "" for a literal.
	Expr string `json:",omitempty"`
}

// Column is one column of a table.
type Column struct {
	Name         string
	Type         types.Type
	Nullable     bool
	IsKey        bool
	Agg          string `json:",omitempty"` // aggregate type of an AGGREGATE KEY value column
	AutoInc      bool   `json:",omitempty"`
	AutoIncStart int64  `json:",omitempty"`
	Default      *Default
	OnUpdateNow  bool   `json:",omitempty"` // ON UPDATE CURRENT_TIMESTAMP
	Comment      string `json:",omitempty"`
	// UID is the column's unique id, numbered as Doris does: 0.. in creation
	// order, new columns take the next free id.
	UID int32
	// Hidden columns are shown only with show_hidden_columns.
	Hidden bool `json:",omitempty"`
	// Virtual columns are computed on read and not stored
	// (__DORIS_VERSION_COL__, __DORIS_COMMIT_TSO_COL__).
	Virtual bool `json:",omitempty"`
}

// PartitionDef is one declared partition.
type PartitionDef struct {
	Name string
	// Text is the partition's value clause as shown by SHOW CREATE TABLE,
	// e.g. `VALUES [("2026-01-01"), ("2026-02-01"))` or `VALUES IN ("a","b")`.
	Text string
	// Values are the raw boundary or list values.
	Values [][]string `json:",omitempty"`
	// Properties are the partition's own properties (ALTER TABLE ...
	// MODIFY PARTITION p SET (...)), e.g. "mutable".
	Properties map[string]string `json:",omitempty"`
}

// Partitioning is a PARTITION BY clause.
type Partitioning struct {
	Type    string // RANGE or LIST
	Columns []string
	Auto    bool   `json:",omitempty"`
	Expr    string `json:",omitempty"` // AUTO PARTITION expression text
	Parts   []PartitionDef
}

// Distribution is a DISTRIBUTED BY clause.
type Distribution struct {
	Random  bool     `json:",omitempty"`
	Columns []string `json:",omitempty"`
	Buckets int      // 0 means AUTO
}

// Index is a secondary index declaration. Those upsert.Indexable accepts
// are built: ID names their stored entries (upsert/index_entries.go),
// built for the column with ColUID of type ColType; ID 0 is a declaration
// only (kept and shown, not used).
type Index struct {
	Name       string
	Columns    []string
	Type       string
	Properties map[string]string `json:",omitempty"`
	Comment    string            `json:",omitempty"`
	ID         int64             `json:",omitempty"`
	ColUID     int32             `json:",omitempty"`
	ColType    types.Type        `json:",omitzero"`
}

// Table is an immutable snapshot of a table's definition.
type Table struct {
	ID           int64
	DB           string
	Name         string
	Keys         KeysType
	Columns      []*Column // keys first, then values, then hidden columns
	ClusterBy    []string  `json:",omitempty"`
	Comment      string    `json:",omitempty"`
	Partition    *Partitioning
	Distribution Distribution
	Indexes      []Index           `json:",omitempty"`
	Rollups      []string          `json:",omitempty"`
	Properties   map[string]string // effective property values
	// SchemaVersion is the version rows are written with now; Schemas maps
	// each version ever used to the UIDs of its stored value columns.
	SchemaVersion uint32
	Schemas       map[uint32][]StoredCol
	NextUID       int32
	CreateTime    int64 // unix ms
	// Constraints are the informational constraints of ALTER TABLE ADD
	// CONSTRAINT, in the order they were added.
	Constraints []Constraint `json:",omitempty"`
	// SyncMVs names the synchronous materialized views (CREATE
	// MATERIALIZED VIEW over this one table), kept as metadata: queries
	// answer from the base table. They refuse partial updates, as Doris.
	SyncMVs []string `json:",omitempty"`
}

// StoredCol is one stored value column of a schema version.
type StoredCol struct {
	UID  int32
	Type types.Type
}

// Equal reports whether two stored columns are the same (types compare with
// types.Type.Equal: nested types hold pointers).
func (c StoredCol) Equal(o StoredCol) bool { return c.UID == o.UID && c.Type.Equal(o.Type) }

// Database is an immutable snapshot of a database.
type Database struct {
	ID         int64
	Name       string
	Properties map[string]string `json:",omitempty"`
	Tables     map[string]*Table
	// Views are the database's views (see View); nil when it has none.
	Views map[string]*View `json:",omitempty"`
}

// state is the whole catalog, persisted as one document.
type state struct {
	NextID int64
	DBs    map[string]*Database
}

var catalogKey = []byte(storage.KeyCatalog)

// Catalog is the live catalog. It is safe for concurrent use.
type Catalog struct {
	db *storage.DB

	ddl sync.Mutex // serialises changes
	mu  sync.RWMutex
	st  *state
	// gen counts the states published, each counted after it is.
	gen atomic.Uint64
}

// Gen counts the catalog's changes. A name resolved after Gen returned g
// resolves the same way while Gen still returns g: a caller may keep what
// it resolved (the point lookup's table) as of g.
func (c *Catalog) Gen() uint64 { return c.gen.Load() }

// Sentinel errors; the executor maps them to Doris's texts.
var (
	ErrUnknownDB    = errors.New("unknown database")
	ErrUnknownTable = errors.New("unknown table")
)

// Open loads the catalog from db.
func Open(db *storage.DB) (*Catalog, error) {
	c := &Catalog{db: db, st: &state{NextID: 10000, DBs: map[string]*Database{}}}
	b, err := db.Get(catalogKey)
	if errors.Is(err, storage.ErrNotFound) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read catalog: %w", err)
	}
	if err := json.Unmarshal(b, c.st); err != nil {
		return nil, fmt.Errorf("cannot decode catalog: %w", err)
	}
	for _, d := range c.st.DBs {
		if d.Tables == nil {
			d.Tables = map[string]*Table{}
		}
	}
	return c, nil
}

// Database returns the named database.
func (c *Catalog) Database(name string) (*Database, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.st.DBs[name]
	return d, ok
}

// Databases returns the database names, sorted.
func (c *Catalog) Databases() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return sortedNames(c.st.DBs)
}

// Table returns the named table of database db.
func (c *Catalog) Table(db, name string) (*Table, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.st.DBs[db]
	if !ok {
		return nil, ErrUnknownDB
	}
	t, ok := d.Tables[name]
	if !ok {
		return nil, ErrUnknownTable
	}
	return t, nil
}

// Tx is a catalog change in progress: a private clone of the state.
type Tx struct {
	st    *state
	Batch *storage.Batch
}

// Update runs fn on a clone of the catalog together with a storage batch;
// if fn succeeds, the new catalog and fn's data changes commit atomically and
// the clone is published.
func (c *Catalog) Update(fn func(tx *Tx) error) error {
	return c.UpdateWith(func(tx *Tx) (func(*storage.SSTWriter) error, error) { return nil, fn(tx) })
}

// UpdateWith is Update for a change whose data may be too large for a
// batch (a schema change that rewrites a table's rows). When fn returns a
// non-nil write, fn's batch must stay empty: the new catalog document goes
// first into one table file, write adds the data after it (keys above
// KeyCatalog, in increasing order), and the file is ingested in one atomic
// step, so readers and a crash see the old catalog and data or the new
// ones. Otherwise it is Update.
func (c *Catalog) UpdateWith(fn func(tx *Tx) (write func(*storage.SSTWriter) error, err error)) error {
	c.ddl.Lock()
	defer c.ddl.Unlock()
	c.mu.RLock()
	raw, err := json.Marshal(c.st)
	c.mu.RUnlock()
	if err != nil {
		return err
	}
	clone := &state{}
	if err := json.Unmarshal(raw, clone); err != nil {
		return err
	}
	for _, d := range clone.DBs {
		if d.Tables == nil {
			d.Tables = map[string]*Table{}
		}
	}
	b := c.db.NewBatch()
	defer b.Close()
	tx := &Tx{st: clone, Batch: b}
	write, err := fn(tx)
	if err != nil {
		return err
	}
	enc, err := json.Marshal(clone)
	if err != nil {
		return err
	}
	if write != nil {
		err = c.ingest(b, enc, write)
	} else {
		b.Set(catalogKey, enc)
		err = b.Commit()
	}
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.st = clone
	c.gen.Add(1)
	c.mu.Unlock()
	return nil
}

// ingest writes the catalog document enc and write's data into one table
// file and ingests it.
func (c *Catalog) ingest(b *storage.Batch, enc []byte, write func(*storage.SSTWriter) error) error {
	if !b.Empty() {
		panic("BUG: a catalog change that ingests its data also wrote a batch")
	}
	w, err := c.db.NewSSTWriter()
	if err != nil {
		return err
	}
	if err := w.Set(catalogKey, enc); err != nil {
		w.Abandon()
		return err
	}
	if err := write(w); err != nil {
		w.Abandon()
		return err
	}
	return w.Finish(c.db)
}

// NewID allocates a database or table id.
func (tx *Tx) NewID() int64 {
	tx.st.NextID++
	return tx.st.NextID
}

// Database returns the clone's database (mutable inside the Tx).
func (tx *Tx) Database(name string) (*Database, bool) {
	d, ok := tx.st.DBs[name]
	return d, ok
}

// PutDatabase adds or replaces a database.
func (tx *Tx) PutDatabase(d *Database) {
	if d.Tables == nil {
		d.Tables = map[string]*Table{}
	}
	tx.st.DBs[d.Name] = d
}

// DropDatabase removes a database.
func (tx *Tx) DropDatabase(name string) { delete(tx.st.DBs, name) }

// RowPrefix is the key prefix of all rows of the table with id.
func RowPrefix(id int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixRows), uint64(id))
}

// Constraint is an informational constraint: Doris records it for the
// planner and never checks the data against it.
type Constraint struct {
	Name    string
	Kind    string   // "PRIMARY KEY", "UNIQUE" or "FOREIGN KEY"
	Columns []string // as the table spells them
	// RefTableID and RefColumns are the referenced primary key of a
	// FOREIGN KEY; the table is kept by id, so a rename keeps the reference
	// (Doris's TableIdentifier).
	RefTableID int64    `json:",omitempty"`
	RefColumns []string `json:",omitempty"`
}

// sortedNames lists the keys of m, sorted (empty, not nil, for none).
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DatabaseNames lists the databases in the transaction's catalog, sorted.
func (tx *Tx) DatabaseNames() []string {
	return sortedNames(tx.st.DBs)
}
