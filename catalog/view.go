package catalog

import "sort"

// View is a stored query, kept in the catalog document beside the tables of
// its database (a view and a table never share a name). Query is the text
// of the query as written; it is bound again, in the view's database, each
// time a statement reads the view.
type View struct {
	ID      int64
	Name    string
	DB      string
	Columns []ViewColumn `json:",omitempty"` // the written column list; nil when none
	Comment string       `json:",omitempty"`
	Query   string
	// CreateTime is when the view was created, in Unix milliseconds.
	CreateTime int64
}

// ViewColumn is a column name a view declares and its comment.
type ViewColumn struct {
	Name    string
	Comment string `json:",omitempty"`
}

// View returns the named view of database db.
func (c *Catalog) View(db, name string) (*View, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.st.DBs[db]
	if !ok {
		return nil, false
	}
	v, ok := d.Views[name]
	return v, ok
}

// ViewNames lists the views of d, sorted.
func (d *Database) ViewNames() []string {
	names := make([]string, 0, len(d.Views))
	for n := range d.Views {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PutView adds or replaces a view of d (inside a Tx).
func (d *Database) PutView(v *View) {
	if d.Views == nil {
		d.Views = map[string]*View{}
	}
	d.Views[v.Name] = v
}
