package ttl

import (
	"errors"
	"slices"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
)

// purger deletes keys with a batch of its own and counts the writes.
type purger struct {
	db     *storage.DB
	writes int
	err    error
}

func (p *purger) Purge(keys [][]byte) error {
	if p.err != nil {
		return p.err
	}
	p.writes++
	return p.db.Update(func(b *storage.Batch) error {
		for _, k := range keys {
			b.Delete(k)
		}
		return nil
	})
}

func openStore(t *testing.T) *storage.DB {
	db, err := storage.Open(t.TempDir(), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// version is one stored row version: key k, expiration exp (nil: NULL),
// committed at tso.
type version struct {
	k   int64
	exp *int64
	tso uint64
}

func at(us int64) *int64 { return &us }

func write(t *testing.T, db *storage.DB, rc *catalog.RowCodec, vs []version) {
	err := db.Update(func(b *storage.Batch) error {
		for _, v := range vs {
			row := []types.Value{types.NewInt(types.BigInt, v.k), types.NewInt(types.Int, 0), types.NullValue}
			if v.exp != nil {
				row[2] = types.NewInt(types.BigInt, *v.exp)
			}
			key := rc.AppendUniqueKey(nil, row, v.tso)
			if !rc.Table().IsUnique() {
				key = rc.AppendDupKey(nil, row, v.tso, 0)
			}
			b.Set(key, rc.AppendValue(nil, row))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// stored lists the (key, tso) of the row versions left.
func stored(t *testing.T, db *storage.DB, rc *catalog.RowCodec) [][2]int64 {
	it, err := db.NewIter(rc.Prefix(), storage.PrefixEnd(rc.Prefix()))
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out [][2]int64
	row := make([]types.Value, len(rc.Table().Columns))
	for ok := it.First(); ok; ok = it.Next() {
		if err := rc.DecodeKey(it.Key(), row); err != nil {
			t.Fatal(err)
		}
		out = append(out, [2]int64{row[0].I, int64(rc.KeyTSO(it.Key()))})
	}
	return out
}

func TestReclaim(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	nowUs := now.UnixMicro()
	lag := ReclaimLag.Microseconds()
	for _, c := range []struct {
		name string
		keys catalog.KeysType
		in   []version
		n    int
		left [][2]int64
	}{
		{"duplicate", catalog.DupKeys, []version{
			{1, at(0), 1},               // long expired
			{2, nil, 1},                 // never expires
			{3, at(nowUs - lag + 1), 1}, // expired, but within the lag
			{4, at(nowUs - lag), 1},     // expired for exactly the lag
			{5, at(nowUs + 1), 1},       // live
			{5, at(0), 2},               // a second row of the same key
		}, 3, [][2]int64{{2, 1}, {3, 1}, {5, 1}}},
		{"unique", catalog.UniqueKeys, []version{
			{1, nil, 1}, {1, at(0), 2}, // newest expired: every version goes
			{2, at(0), 1}, {2, nil, 2}, // newest live: nothing goes
			{3, nil, 1},
		}, 2, [][2]int64{{2, 2}, {2, 1}, {3, 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := openStore(t)
			rc := catalog.NewRowCodec(directTable(c.keys))
			write(t, db, rc, c.in)
			p := &purger{db: db}
			n, err := Reclaim(db, p, rc, rc.Table(), now)
			if err != nil || n != c.n || p.writes != 1 {
				t.Fatalf("Reclaim = %d, %v after %d writes; want %d in one write", n, err, p.writes, c.n)
			}
			if got := stored(t, db, rc); !slices.Equal(got, c.left) {
				t.Errorf("left %v, want %v", got, c.left)
			}
			if n, err := Reclaim(db, p, rc, rc.Table(), now); n != 0 || err != nil || p.writes != 1 {
				t.Errorf("second Reclaim = %d, %v after %d writes; want nothing to do", n, err, p.writes)
			}
		})
	}
}

func TestReclaimSkipsAndFails(t *testing.T) {
	db := openStore(t)
	plain := newTable(catalog.DupKeys, map[string]string{},
		&catalog.Column{Name: "k", Type: bigint, IsKey: true}, &catalog.Column{Name: "v", Type: intType})
	p := &purger{db: db, err: errors.New("disk gone")}
	if n, err := Reclaim(db, p, catalog.NewRowCodec(plain), plain, time.Unix(1e6, 0)); n != 0 || err != nil {
		t.Errorf("Reclaim of a table without TTL = %d, %v", n, err)
	}
	rc := catalog.NewRowCodec(directTable(catalog.DupKeys))
	write(t, db, rc, []version{{1, at(0), 1}})
	if _, err := Reclaim(db, p, rc, rc.Table(), time.Unix(1e6, 0)); !errors.Is(err, p.err) {
		t.Errorf("Reclaim with a failing write = %v, want %v", err, p.err)
	}
	if got := stored(t, db, rc); len(got) != 1 {
		t.Errorf("a failed reclamation removed rows: %v", got)
	}
}
