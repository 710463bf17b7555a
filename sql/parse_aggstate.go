package sql

import (
	"strings"

	"loadgw/types"
)

// aggStateDataType parses Doris's aggStateDataType:
//
//	AGG_STATE < functionName ( dataType [[NOT] NULL] , ... ) >
//
// An argument without NULL or NOT NULL is nullable. Whether the function
// is an aggregate is checked where the column is built.
func (p *parser) aggStateDataType() types.Type {
	p.descend()
	defer p.ascend()
	p.next()
	p.expectOp("<")
	fn := strings.ToLower(p.ident())
	p.expectOp("(")
	var args []types.Type
	var nullable []bool
	for {
		args = append(args, p.innerType())
		n := p.optNullable()
		nullable = append(nullable, n == nil || *n)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	p.expectOp(">")
	return types.AggStateOf(fn, args, nullable)
}
