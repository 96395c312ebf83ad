//! The source operators' lowered counterparts, in one exhaustive match: a new source operator
//! does not compile until it is given its meaning here (no catch-all arm can mistranslate it).

use crate::ir::BinOp;
use crate::syntax::ast::BinaryOp;

/// The lowered operator of a binary source operator; `None` for `union`, which builds a set
/// (`TKind::Set`) rather than applying an operator.
pub(crate) fn lowered(op: BinaryOp) -> Option<BinOp> {
    Some(match op {
        BinaryOp::And => BinOp::And,
        BinaryOp::Or => BinOp::Or,
        BinaryOp::Xor => BinOp::Xor,
        BinaryOp::Xnor => BinOp::Xnor,
        BinaryOp::Implies => BinOp::Implies,
        BinaryOp::Iff => BinOp::Iff,
        BinaryOp::Eq => BinOp::Eq,
        BinaryOp::Ne => BinOp::Ne,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::Le => BinOp::Le,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::Ge => BinOp::Ge,
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Mod => BinOp::Mod,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::In => BinOp::In,
        BinaryOp::Concat => BinOp::Concat,
        BinaryOp::Union => return None,
    })
}

/// The lowered operator of an integer operator (`+ - * / mod << >>`), `None` for the others.
pub(crate) fn arith_op(op: BinaryOp) -> Option<BinOp> {
    lowered(op).filter(|b| matches!(b, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_but_union_is_lowered_to_its_namesake() {
        let all = [
            BinaryOp::And,
            BinaryOp::Or,
            BinaryOp::Xor,
            BinaryOp::Xnor,
            BinaryOp::Implies,
            BinaryOp::Iff,
            BinaryOp::Eq,
            BinaryOp::Ne,
            BinaryOp::Lt,
            BinaryOp::Le,
            BinaryOp::Gt,
            BinaryOp::Ge,
            BinaryOp::Add,
            BinaryOp::Sub,
            BinaryOp::Mul,
            BinaryOp::Div,
            BinaryOp::Mod,
            BinaryOp::Shl,
            BinaryOp::Shr,
            BinaryOp::In,
            BinaryOp::Concat,
        ];
        for op in all {
            let b = lowered(op).expect("lowered");
            assert_eq!(format!("{op:?}"), format!("{b:?}"));
        }
        assert_eq!(lowered(BinaryOp::Union), None);
        assert_eq!(arith_op(BinaryOp::Add), Some(BinOp::Add));
        assert_eq!(arith_op(BinaryOp::Lt), None);
    }
}
