package expr

import "strconv"

// MaxDepth is the deepest expression tree loadgw accepts, counting a leaf
// as depth 1 and each operator, predicate, CASE, CAST or call as one more
// level above its deepest operand; parentheses add no level. It is Doris's
// FE config expr_depth_limit, whose default is 3000.
//
// Every tree package sql returns is at most MaxDepth deep, and Bind refuses
// deeper ones, so the recursive walks over trees (binding, evaluation,
// formatting, the query planner's) stay within a small, bounded stack. A
// tree built by hand must pass CheckDepth before String formats it.
const MaxDepth = 3000

// ErrTooDeep reports an expression tree deeper than MaxDepth. The text is
// Doris's (Nereids Expression.checkLimit).
var ErrTooDeep = &Error{Msg: "Exceeded the maximum depth of an expression tree (" + strconv.Itoa(MaxDepth) + ")."}

// CheckDepth returns ErrTooDeep when e is deeper than MaxDepth. It walks e
// without recursion and stops at the first level past the limit, so a tree
// of any depth and size can be checked.
func CheckDepth(e Expr) error {
	var buf [32]frame // enough for common trees without a heap allocation
	stack := append(buf[:0], frame{e, 1})
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.level > MaxDepth {
			return ErrTooDeep
		}
		stack = pushChildren(stack, f.e, f.level+1)
	}
	return nil
}

// frame is a node of a tree walk and its level (the root is level 1).
type frame struct {
	e     Expr
	level int
}

// pushChildren appends the operands of e that are present, at level.
func pushChildren(stack []frame, e Expr, level int) []frame {
	for _, x := range children(e) {
		if x != nil {
			stack = append(stack, frame{x, level})
		}
	}
	return stack
}
