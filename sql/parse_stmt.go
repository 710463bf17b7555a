package sql

import (
	"strings"

	"loadgw/expr"
)

// spanSetter is implemented by every statement through its embedded Span.
type spanSetter interface{ setSpan(Span) }

func (s *Span) setSpan(x Span) { *s = x }

// statement parses one statement and records its span.
func (p *parser) statement() Statement {
	p.enterStmt()
	defer p.leaveStmt()
	start := p.peek().off
	s := p.statementBody()
	s.(spanSetter).setSpan(Span{Start: start, End: p.toks[p.i-1].end})
	return s
}

func (p *parser) statementBody() Statement {
	switch {
	case p.isKw("SELECT") || p.isOp("(") || p.isKw("WITH"):
		return p.query()
	case p.isKw("INSERT"):
		return p.insert()
	case p.isKw("UPDATE"):
		return p.update()
	case p.isKw("DELETE"):
		return p.deleteStmt()
	case p.isKw("CREATE"):
		return p.create()
	case p.isKw("DROP"):
		return p.drop()
	case p.isKw("ALTER"):
		if p.isKwN(1, "STREAM") {
			return p.alterStream()
		}
		if p.isKwN(1, "DATABASE") {
			return p.alterDatabase()
		}
		if p.isKwN(1, "VIEW") {
			return p.alterView()
		}
		return p.alterTable()
	case p.isKw("TRUNCATE"):
		return p.truncate()
	case p.isKw("SHOW"):
		return p.show()
	case p.isKw("DESC") || p.isKw("DESCRIBE"):
		return p.describe()
	case p.isKw("USE"):
		p.next()
		return &Use{DB: p.ident()}
	case p.isKw("SET"):
		return p.set()
	case p.isKw("EXPLAIN"):
		return p.explain()
	case p.isKw("BUILD"):
		return p.buildIndex()
	case p.isKw("BEGIN"):
		return p.begin()
	case p.isKw("COMMIT") || p.isKw("ROLLBACK"):
		return p.endTxn()
	case p.isKw("START"):
		return p.startTransaction()
	case p.acceptKw("SYNC"):
		return &Sync{}
	case p.isKw("CANCEL") && p.isKwN(1, "ALTER"):
		return p.cancelAlterTable()
	}
	p.mismatch()
	return nil
}

// ---- CREATE / DROP dispatch ----

func (p *parser) create() Statement {
	start := p.i
	p.next() // CREATE
	switch {
	case p.isKw("STREAM"):
		return p.createStream(false)
	case p.isKw("OR") && p.isKwN(1, "REPLACE") && p.isKwN(2, "STREAM"):
		p.next()
		p.next()
		return p.createStream(true)
	case p.isKw("TABLE") || p.isKw("EXTERNAL"):
		return p.createTable()
	case p.isKw("DATABASE") || p.isKw("SCHEMA"):
		return p.createDatabase()
	case p.isKw("INDEX"):
		return p.createIndex()
	case p.isKw("MATERIALIZED"):
		return p.createMaterializedView()
	case p.isKw("VIEW") || p.isKw("OR"):
		return p.createView()
	}
	p.noViable(start)
	return nil
}

func (p *parser) drop() Statement {
	start := p.i
	p.next() // DROP
	switch {
	case p.acceptKw("TABLE"):
		s := &DropTable{IfExists: p.acceptKws("IF", "EXISTS")}
		s.Table = p.tableName()
		s.Force = p.acceptKw("FORCE")
		return s
	case p.acceptKw("DATABASE") || p.acceptKw("SCHEMA"):
		s := &DropDatabase{IfExists: p.acceptKws("IF", "EXISTS")}
		s.Name = p.ident()
		s.Force = p.acceptKw("FORCE")
		return s
	case p.acceptKw("INDEX"):
		s := &DropIndex{IfExists: p.acceptKws("IF", "EXISTS")}
		s.Name = p.ident()
		p.expectKw("ON")
		s.Table = p.tableName()
		return s
	case p.acceptKws("MATERIALIZED", "VIEW"):
		return p.dropMaterializedView()
	case p.acceptKw("STREAM"):
		return p.dropStream()
	case p.acceptKw("VIEW"):
		return &DropView{IfExists: p.acceptKws("IF", "EXISTS"), Name: p.tableName()}
	}
	p.noViable(start)
	return nil
}

func (p *parser) dropMaterializedView() Statement {
	s := &DropMaterializedView{IfExists: p.acceptKws("IF", "EXISTS")}
	s.Name = p.tableName()
	if p.acceptKw("ON") {
		t := p.tableName()
		s.Table = &t
	}
	return s
}

func (p *parser) createDatabase() Statement {
	p.next() // DATABASE | SCHEMA
	s := &CreateDatabase{IfNotExists: p.acceptKws("IF", "NOT", "EXISTS")}
	s.Name = p.ident()
	s.Properties = p.optProperties()
	return s
}

// alterDatabase parses ALTER DATABASE name SET PROPERTIES (...), the one
// ALTER DATABASE form loadgw has.
func (p *parser) alterDatabase() Statement {
	p.next() // ALTER
	p.next() // DATABASE
	s := &AlterDatabase{Name: p.ident()}
	p.expectKw("SET", "PROPERTIES")
	s.Properties = p.propertyList()
	return s
}

func (p *parser) truncate() Statement {
	p.next()
	p.expectKw("TABLE")
	s := &Truncate{Table: p.tableName()}
	if p.acceptKw("PARTITION") || p.acceptKw("PARTITIONS") {
		s.Partitions = p.partitionNames()
	}
	return s
}

// partitionNames parses the names after PARTITION: `p` or `(p1, p2)`.
func (p *parser) partitionNames() []string {
	if p.isOp("(") {
		return p.identList()
	}
	return []string{p.ident()}
}

// ---- SHOW, DESCRIBE ----

func (p *parser) show() Statement {
	start := p.i
	p.next() // SHOW
	full := p.acceptKw("FULL")
	if s := p.showClient(full); s != nil {
		return s
	}
	if s := p.showCluster(); !full && s != nil {
		return s
	}
	switch {
	case !full && (p.acceptKw("DATABASES") || p.acceptKw("SCHEMAS")):
		return &ShowDatabases{Like: p.optLike()}
	case p.acceptKw("TABLES"):
		s := &ShowTables{Full: full}
		s.DB = p.fromIn()
		s.Like = p.optLike()
		return s
	case p.acceptKw("COLUMNS") || p.acceptKw("FIELDS"):
		return p.showColumns(full)
	case !full && (p.acceptKws("CREATE", "DATABASE") || p.acceptKws("CREATE", "SCHEMA")):
		return &ShowCreateDatabase{Name: p.ident()}
	case !full && p.acceptKw("STREAMS"):
		return p.showStreams()
	case !full && p.acceptKws("CREATE", "STREAM"):
		return &ShowCreateStream{Name: p.tableName()}
	case !full && p.acceptKws("CREATE", "VIEW"):
		return &ShowCreateView{Name: p.tableName()}
	case !full && p.acceptKws("CREATE", "TABLE"):
		return &ShowCreateTable{Table: p.tableName()}
	case !full && (p.isKw("PARTITIONS") || p.isKw("TEMPORARY")):
		s := &ShowPartitions{Temporary: p.acceptKw("TEMPORARY")}
		p.expectKw("PARTITIONS", "FROM")
		s.Table = p.tableName()
		return s
	case !full && p.acceptKws("STREAM", "LOAD"):
		return p.showLoad(true)
	case !full && p.isKw("LOAD") && !p.isKwN(1, "WARNINGS") && !p.isKwN(1, "PROFILE"):
		p.next()
		return p.showLoad(false)
	case !full && p.isKw("ALTER") && p.isKwN(1, "TABLE"):
		p.next()
		p.next()
		return p.showAlterTable()
	case !full && p.acceptKw("TABLETS"):
		return p.showTablets()
	case !full && p.acceptKw("CONSTRAINTS"):
		p.expectKw("FROM")
		return &ShowConstraints{Table: p.tableName()}
	case !full:
		if s := p.showVariables(); s != nil {
			return s
		}
	}
	p.noViable(start)
	return nil
}

func (p *parser) showColumns(full bool) Statement {
	if !p.acceptKw("FROM") {
		p.expectKw("IN")
	}
	s := &ShowColumns{Full: full, Table: p.tableName()}
	if p.acceptKw("FROM") || p.acceptKw("IN") {
		s.Table.DB = p.ident()
	}
	return s
}

// showVariables parses [GLOBAL|SESSION|LOCAL] VARIABLES [LIKE 'p'], or
// returns nil when the tokens do not start it.
func (p *parser) showVariables() Statement {
	scope := p.optScope()
	if !p.acceptKw("VARIABLES") {
		return nil
	}
	s := &ShowVariables{Scope: scope, Like: p.optLike()}
	if s.Like == nil && p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	return s
}

// optScope parses an optional GLOBAL | SESSION | LOCAL.
func (p *parser) optScope() string {
	switch {
	case p.acceptKw("GLOBAL"):
		return "GLOBAL"
	case p.acceptKw("SESSION") || p.acceptKw("LOCAL"):
		return "SESSION"
	}
	return ""
}

// describe parses DESC t [ALL], or DESC <query> as EXPLAIN.
func (p *parser) describe() Statement {
	p.next()
	if p.isKw("SELECT") || p.isKw("INSERT") || p.isKw("UPDATE") || p.isKw("DELETE") || p.isOp("(") {
		return &Explain{Stmt: p.statement()}
	}
	s := &Describe{Table: p.tableName()}
	s.All = p.acceptKw("ALL")
	return s
}

// explainLevels are the words Doris accepts between EXPLAIN and the query.
var explainLevels = map[string]bool{
	"VERBOSE": true, "TREE": true, "GRAPH": true, "PLAN": true, "DUMP": true,
	"PROCESS": true, "PARSED": true, "ANALYZED": true, "REWRITTEN": true,
	"LOGICAL": true, "OPTIMIZED": true, "PHYSICAL": true, "SHAPE": true,
	"MEMO": true, "DISTRIBUTED": true, "ALL": true,
}

func (p *parser) explain() Statement {
	p.next()
	var words []string
	for t := p.peek(); t.kind == tkIdent && explainLevels[t.up]; t = p.peek() {
		words = append(words, t.up)
		p.next()
	}
	return &Explain{Level: strings.Join(words, " "), Stmt: p.statement()}
}

// ---- SET ----

func (p *parser) set() Statement {
	p.next() // SET
	if p.acceptKw("NAMES") {
		s := &SetNames{Charset: p.setWord()}
		if p.acceptKw("COLLATE") {
			s.Collate = p.setWord()
		}
		return s
	}
	s := &SetVar{}
	for {
		s.Items = append(s.Items, p.setItem())
		if !p.acceptOp(",") {
			return s
		}
	}
}

// setWord is a charset or collation name: identifier, string or DEFAULT.
func (p *parser) setWord() string {
	if t := p.peek(); t.kind == tkString || (t.kind == tkIdent && t.up == "DEFAULT") {
		p.next()
		return t.text
	}
	return p.ident()
}

func (p *parser) setItem() SetItem {
	var it SetItem
	switch {
	case p.acceptOp("@@"):
		it.Scope = p.sysVarScope()
	case p.acceptOp("@"):
		it.UserVar = true
	case !p.isOpN(1, "=") && !p.isOpN(1, ":="):
		// GLOBAL/SESSION/LOCAL is a scope unless it is the variable's name.
		it.Scope = p.optScope()
	}
	it.Name = strings.ToLower(p.ident())
	if !p.acceptOp(":=") {
		p.expectOp("=")
	}
	it.Value = p.setValue()
	return it
}

// sysVarScope parses the optional `global.` / `session.` / `local.` after @@.
func (p *parser) sysVarScope() string {
	if p.isOpN(1, ".") {
		switch t := p.peek(); t.up {
		case "GLOBAL":
			p.i += 2
			return "GLOBAL"
		case "SESSION", "LOCAL":
			p.i += 2
			return "SESSION"
		}
	}
	return ""
}

// setValue is an expression, DEFAULT, or a bare ON/ALL/BINARY word.
func (p *parser) setValue() expr.Expr {
	t := p.peek()
	if t.kind == tkIdent && (t.up == "ON" || t.up == "ALL" || t.up == "BINARY") {
		p.next()
		return &expr.ColumnRef{P: t.off, Name: t.text}
	}
	if t.kind == tkIdent && t.up == "DEFAULT" {
		p.next()
		return &expr.Default{P: t.off}
	}
	return p.expr()
}
