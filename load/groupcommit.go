package load

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
)

// The group_commit modes (Doris's group commit): off_mode loads as usual;
// sync_mode answers once the group holding the rows is committed and
// visible; async_mode answers once the rows are durable, visible shortly
// after.
const (
	GroupCommitOff   = "off_mode"
	GroupCommitSync  = "sync_mode"
	GroupCommitAsync = "async_mode"
)

// GroupCommit is the decision on a load's group_commit header.
type GroupCommit struct {
	// Mode is the mode sent, in lower case, or "".
	Mode string
	// Active: the load runs as a group commit, under Label.
	Active bool
	Label  string
	// DropLabel: a chunked load ignores its label header.
	DropLabel bool
}

// GroupCommitOf decides the group_commit header as Doris's BE does
// (StreamLoadAction::_handle_group_commit), before anything else of the
// request: a mode other than the three fails; off_mode, no header, or an
// empty body that is not chunked load as usual; a chunked body drops the
// label header; partial updates (partial_columns, unique_key_update_mode),
// target partitions and two-phase commit silently load as usual; otherwise
// a label header fails and the load runs as a group commit under a label
// of the form group_commit_<hex>_<hex>. contentLength < 0 means unknown
// but not empty.
//
// loadgw always has group commit: every load that reaches commit while
// another group is writing shares that group's synced write. So sync_mode
// and async_mode commit the same way, through that pipeline; both answer
// once the rows are durable and visible, which is what sync_mode promises
// and more than async_mode does.
func GroupCommitOf(h http.Header, chunked bool, contentLength int64) (GroupCommit, error) {
	var gc GroupCommit
	v, sent := header(h, "group_commit")
	if !sent || v == "" {
		return gc, nil
	}
	switch {
	case strings.EqualFold(v, GroupCommitSync):
		gc.Mode = GroupCommitSync
	case strings.EqualFold(v, GroupCommitAsync):
		gc.Mode = GroupCommitAsync
	case strings.EqualFold(v, GroupCommitOff):
		gc.Mode = GroupCommitOff
	default:
		return gc, invalidArg("group_commit can only be [async_mode, sync_mode, off_mode]")
	}
	if gc.Mode == GroupCommitOff || (contentLength == 0 && !chunked) {
		return gc, nil
	}
	get := func(name string) string { s, _ := header(h, name); return s }
	label := strings.TrimSpace(get("label"))
	if chunked {
		gc.DropLabel, label = true, ""
	}
	mode := strings.TrimSpace(get("unique_key_update_mode"))
	if isTrue(get("partial_columns")) || get("partitions") != "" || get("temporary_partitions") != "" ||
		get("two_phase_commit") == "true" ||
		strings.EqualFold(mode, ModeFixedColumns) || strings.EqualFold(mode, ModeFlexible) {
		return gc, nil
	}
	if label != "" {
		return gc, invalidArg("label and group_commit can't be set at the same time")
	}
	gc.Active, gc.Label = true, GroupCommitLabel()
	return gc, nil
}

// SetGroupCommit applies the decision on the group_commit header to p.
func (p *Params) SetGroupCommit(gc GroupCommit) {
	p.GroupCommit, p.groupCommitActive = gc.Mode, gc.Active
	if gc.DropLabel {
		p.Label = ""
	}
	if gc.Active {
		p.Label = gc.Label
	}
}

// GroupCommitActive reports whether the load runs as a group commit (see
// GroupCommitOf): its answer then has Doris's group commit layout.
func (p *Params) GroupCommitActive() bool { return p.groupCommitActive }

// GroupCommitLabel is a new label of the form Doris gives group commit
// loads: "group_commit_" and a random 128-bit id as two 16-digit hex
// halves joined by "_".
func GroupCommitLabel() string {
	var id [16]byte
	_, _ = rand.Read(id[:]) // never fails (crypto/rand)
	return "group_commit_" + hex.EncodeToString(id[:8]) + "_" + hex.EncodeToString(id[8:])
}
