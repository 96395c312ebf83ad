//! CTL formulas over proposition ids as NuSMV-style text: a printer (fully parenthesised, for
//! reproducers) and a small recursive-descent parser (for writing tests tersely).
//!
//! Syntax: `TRUE FALSE p ! & | xor xnor -> <->`, unary `EX AX EF AF EG AG`, `E [ a U b ]`,
//! `A [ a U b ]`, parentheses. Precedence, loosest first: `->` (right-associative), `<->`
//! `xor` `xnor`, `|`, `&`, then the unary operators.

use xmv_rs::ctl::Ctl;

pub type F = Ctl<u32>;

pub fn print(f: &F, props: &[String]) -> String {
    use Ctl::*;
    let p = |g: &F| print(g, props);
    match f {
        True => "TRUE".into(),
        False => "FALSE".into(),
        Atom(a) => props[*a as usize].clone(),
        Not(a) => format!("!{}", p(a)),
        And(a, b) => format!("({} & {})", p(a), p(b)),
        Or(a, b) => format!("({} | {})", p(a), p(b)),
        Xor(a, b) => format!("({} xor {})", p(a), p(b)),
        Xnor(a, b) => format!("({} xnor {})", p(a), p(b)),
        Implies(a, b) => format!("({} -> {})", p(a), p(b)),
        Iff(a, b) => format!("({} <-> {})", p(a), p(b)),
        EX(a) => format!("EX {}", p(a)),
        AX(a) => format!("AX {}", p(a)),
        EF(a) => format!("EF {}", p(a)),
        AF(a) => format!("AF {}", p(a)),
        EG(a) => format!("EG {}", p(a)),
        AG(a) => format!("AG {}", p(a)),
        EU(a, b) => format!("E [ {} U {} ]", p(a), p(b)),
        AU(a, b) => format!("A [ {} U {} ]", p(a), p(b)),
    }
}

/// Parses `text`; atoms are looked up in `props`. Panics on malformed input (test input only).
pub fn parse(text: &str, props: &[String]) -> F {
    let mut toks = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_alphanumeric() || c == '_' {
            let mut w = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_alphanumeric() || **c == '_' || **c == '.') {
                w.push(c);
                chars.next();
            }
            toks.push(w);
        } else {
            let mut w = String::new();
            for op in ["<->", "->", "!", "&", "|", "(", ")", "[", "]", "~"] {
                let rest: String = chars.clone().take(op.len()).collect();
                if rest == op {
                    w = op.to_string();
                    break;
                }
            }
            assert!(!w.is_empty(), "unexpected character {c:?} in {text:?}");
            for _ in 0..w.len() {
                chars.next();
            }
            toks.push(w);
        }
    }
    let mut p = Parser { toks, pos: 0, props, text };
    let f = p.implies();
    assert!(p.pos == p.toks.len(), "trailing input in {text:?}");
    f
}

struct Parser<'a> {
    toks: Vec<String>,
    pos: usize,
    props: &'a [String],
    text: &'a str,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|s| s.as_str())
    }
    fn eat(&mut self, t: &str) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) {
        assert!(self.eat(t), "expected {t:?} at token {} in {:?}", self.pos, self.text);
    }
    fn implies(&mut self) -> F {
        let a = self.iff();
        if self.eat("->") { Ctl::Implies(Box::new(a), Box::new(self.implies())) } else { a }
    }
    fn iff(&mut self) -> F {
        let mut a = self.or();
        loop {
            a = if self.eat("<->") {
                Ctl::Iff(Box::new(a), Box::new(self.or()))
            } else if self.eat("xor") {
                Ctl::Xor(Box::new(a), Box::new(self.or()))
            } else if self.eat("xnor") {
                Ctl::Xnor(Box::new(a), Box::new(self.or()))
            } else {
                return a;
            }
        }
    }
    fn or(&mut self) -> F {
        let mut a = self.and();
        while self.eat("|") {
            a = Ctl::Or(Box::new(a), Box::new(self.and()));
        }
        a
    }
    fn and(&mut self) -> F {
        let mut a = self.unary();
        while self.eat("&") {
            a = Ctl::And(Box::new(a), Box::new(self.unary()));
        }
        a
    }
    fn until(&mut self, universal: bool) -> F {
        self.expect("[");
        let a = self.implies();
        self.expect("U");
        let b = self.implies();
        self.expect("]");
        if universal { Ctl::AU(Box::new(a), Box::new(b)) } else { Ctl::EU(Box::new(a), Box::new(b)) }
    }
    fn unary(&mut self) -> F {
        let t = self.peek().unwrap_or_else(|| panic!("unexpected end of {:?}", self.text)).to_string();
        self.pos += 1;
        let un = |s: &mut Self, f: fn(Box<F>) -> F| f(Box::new(s.unary()));
        match t.as_str() {
            "TRUE" => Ctl::True,
            "FALSE" => Ctl::False,
            "!" | "~" => un(self, Ctl::Not),
            "EX" => un(self, Ctl::EX),
            "AX" => un(self, Ctl::AX),
            "EF" => un(self, Ctl::EF),
            "AF" => un(self, Ctl::AF),
            "EG" => un(self, Ctl::EG),
            "AG" => un(self, Ctl::AG),
            "E" => self.until(false),
            "A" => self.until(true),
            "(" => {
                let f = self.implies();
                self.expect(")");
                f
            }
            name => {
                let id = self.props.iter().position(|p| p == name);
                Ctl::Atom(id.unwrap_or_else(|| panic!("unknown proposition {name} in {:?}", self.text)) as u32)
            }
        }
    }
}
