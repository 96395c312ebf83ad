//! The symbolic model restricted to a cone of influence ([`super::cone`]), for checking the
//! specs whose cone leaves variables out.
//!
//! Its transition relation is built from the model's parts that read only variables of the cone
//! (the `next()` assignments, frozen and domain constraints of the cone's variables, every
//! `TRANS`/`INVAR` conjunct — all in every cone — and the domains of the cone's inputs); the
//! other parts only constrain variables outside the cone. Initial and reachable states are the
//! model's, projected on the cone's variables (existential quantification of the others): the
//! cone's own forward search would find the same set (see `cone`'s exactness argument), and the
//! projection is one operation on sets the model build has already computed. Sets over the cone
//! live in the model's manager and encoding: they simply do not read the bits outside.

use super::encoding::Copy;
use super::trans::{Part, TransRel};
use super::{Bdd, SymResult, SymbolicModel};
use crate::lowering::program::VarId;
use oxidd::{BooleanFunction, BooleanFunctionQuant};

/// A cone's transition relation, initial and reachable states.
pub(crate) struct Reduced {
    pub trans: TransRel,
    pub init: Bdd,
    pub reach: Bdd,
}

impl Reduced {
    /// The model restricted to `cone` (a mask of its variables).
    pub(crate) fn of(model: &SymbolicModel, cone: &[bool]) -> SymResult<Reduced> {
        let enc = &model.enc;
        let n = enc.num_vars();
        let inside = |p: &&Part| (0..n).all(|v| cone[v] || !(p.cur[v] || p.next[v]));
        let mut parts: Vec<Part> = model.parts.iter().filter(inside).map(|p| Part { bdd: p.bdd.clone(), cur: p.cur.clone(), next: p.next.clone() }).collect();
        let inputs: Vec<bool> = (0..n).map(|v| cone[v] && enc.is_input(VarId::new(v))).collect();
        let mut input_dom = enc.t();
        for v in (0..n).filter(|&v| inputs[v]) {
            input_dom = input_dom.and(&enc.in_domain(VarId::new(v), Copy::Cur)?)?;
        }
        if !input_dom.valid() {
            parts.push(Part { bdd: input_dom, cur: inputs, next: vec![false; n] });
        }
        let trans = TransRel::new(enc, parts)?;
        let outside = enc.cube_of((0..n).filter(|&v| !cone[v] && !enc.is_input(VarId::new(v))).map(VarId::new), Copy::Cur)?;
        let reach = model.reach.exists(&outside)?;
        let init = model.init.exists(&outside)?;
        Ok(Reduced { trans, init, reach })
    }
}
