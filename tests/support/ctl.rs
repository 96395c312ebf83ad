//! Test support: terse constructors for `Ctl<PropId>`.
#![allow(dead_code)]

use xmv_rs::ctl::Ctl;

pub type F = Ctl<u32>;

pub fn ap(p: u32) -> F {
    Ctl::Atom(p)
}
pub fn not(a: F) -> F {
    Ctl::Not(Box::new(a))
}
pub fn and(a: F, b: F) -> F {
    Ctl::And(Box::new(a), Box::new(b))
}
pub fn or(a: F, b: F) -> F {
    Ctl::Or(Box::new(a), Box::new(b))
}
pub fn implies(a: F, b: F) -> F {
    Ctl::Implies(Box::new(a), Box::new(b))
}
pub fn ex(a: F) -> F {
    Ctl::EX(Box::new(a))
}
pub fn ax(a: F) -> F {
    Ctl::AX(Box::new(a))
}
pub fn eg(a: F) -> F {
    Ctl::EG(Box::new(a))
}
pub fn ag(a: F) -> F {
    Ctl::AG(Box::new(a))
}
pub fn ef(a: F) -> F {
    Ctl::EF(Box::new(a))
}
pub fn af(a: F) -> F {
    Ctl::AF(Box::new(a))
}
pub fn eu(a: F, b: F) -> F {
    Ctl::EU(Box::new(a), Box::new(b))
}
pub fn au(a: F, b: F) -> F {
    Ctl::AU(Box::new(a), Box::new(b))
}
