//! CTL formulas over proposition ids as NuSMV-style text: a printer (fully parenthesised, for
//! reproducers) and a small recursive-descent parser (for writing tests tersely).
//!
//! Syntax: `TRUE FALSE p ! & | xor xnor -> <->`, unary `EX AX EF AF EG AG`, `E [ a U b ]`,
//! `A [ a U b ]`, parentheses; also RSMCheck's `.ctl` spelling (`E X p`, `A G p`, `E ( p U q )`,
//! `E p U q`, `~`, `-->`, `or`, `and`). Precedence, loosest first: `->` (right-associative), `<->`
//! `xor` `xnor`, `|`, `&`, then the unary operators.

use xmv_rs::ctl::Ctl;
use xmv_rs::ir::PropId;

pub type F = Ctl<PropId>;

pub fn print(f: &F, props: &[String]) -> String {
    use Ctl::*;
    let p = |g: &F| print(g, props);
    match f {
        True => "TRUE".into(),
        False => "FALSE".into(),
        Atom(a) => props[a.index()].clone(),
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
        EBF(a, k) => format!("EBF {}..{} {}", k.lo, k.hi, p(a)),
        ABF(a, k) => format!("ABF {}..{} {}", k.lo, k.hi, p(a)),
        EBG(a, k) => format!("EBG {}..{} {}", k.lo, k.hi, p(a)),
        ABG(a, k) => format!("ABG {}..{} {}", k.lo, k.hi, p(a)),
        EBU(a, b, k) => format!("E [ {} BU {}..{} {} ]", p(a), k.lo, k.hi, p(b)),
        ABU(a, b, k) => format!("A [ {} BU {}..{} {} ]", p(a), k.lo, k.hi, p(b)),
    }
}

/// A bounded (RTCTL) top operator in plain CTL, written from the path semantics with one step
/// being `EX` (some path) or `AX` (every path): `F lo..hi` is "at some step i in lo..hi",
/// `G lo..hi` "at every step of lo..hi", `a BU lo..hi b` "b at some step i in lo..hi and a at
/// the steps before i". `None` for any other operator. Independent of the checker's unfolding
/// (`check::rewrite`), which uses NuSMV's iteration and the `¬EBG ¬` dualities.
pub fn expand_bounded(f: &F) -> Option<F> {
    use Ctl::*;
    type Step = fn(F) -> F;
    fn ex(x: F) -> F {
        EX(Box::new(x))
    }
    fn ax(x: F) -> F {
        AX(Box::new(x))
    }
    fn until(a: Option<&F>, b: &F, lo: u32, hi: u32, step: Step) -> F {
        let guard = |x: F| match a {
            Some(a) => And(Box::new(a.clone()), Box::new(x)),
            None => x,
        };
        if lo > 0 {
            guard(step(until(a, b, lo - 1, hi - 1, step)))
        } else if hi == 0 {
            b.clone()
        } else {
            Or(Box::new(b.clone()), Box::new(guard(step(until(a, b, 0, hi - 1, step)))))
        }
    }
    fn globally(a: &F, lo: u32, hi: u32, step: Step) -> F {
        if lo > 0 {
            step(globally(a, lo - 1, hi - 1, step))
        } else if hi == 0 {
            a.clone()
        } else {
            And(Box::new(a.clone()), Box::new(step(globally(a, 0, hi - 1, step))))
        }
    }
    Some(match f {
        EBF(a, k) => until(None, a, k.lo, k.hi, ex),
        ABF(a, k) => until(None, a, k.lo, k.hi, ax),
        EBG(a, k) => globally(a, k.lo, k.hi, ex),
        ABG(a, k) => globally(a, k.lo, k.hi, ax),
        EBU(a, b, k) => until(Some(a), b, k.lo, k.hi, ex),
        ABU(a, b, k) => until(Some(a), b, k.lo, k.hi, ax),
        _ => return None,
    })
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
            // RSMCheck spells the Boolean connectives as words.
            toks.push(match w.as_str() {
                "or" => "|".to_string(),
                "and" => "&".to_string(),
                _ => w,
            });
        } else {
            let mut w = String::new();
            for op in ["<->", "-->", "->", "!", "&", "|", "(", ")", "[", "]", "~"] {
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
            toks.push(if w == "-->" { "->".to_string() } else { w });
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
            // RSMCheck's spelling: `E X φ`, `A G φ`, `E ( φ U ψ )`, `E φ U ψ`.
            "E" | "A" if matches!(self.peek(), Some("X" | "F" | "G")) => {
                let op = self.peek().unwrap_or_default().to_string();
                self.pos += 1;
                let sub = Box::new(self.unary());
                match (t.as_str(), op.as_str()) {
                    ("E", "X") => Ctl::EX(sub),
                    ("E", "F") => Ctl::EF(sub),
                    ("E", "G") => Ctl::EG(sub),
                    ("A", "X") => Ctl::AX(sub),
                    ("A", "F") => Ctl::AF(sub),
                    _ => Ctl::AG(sub),
                }
            }
            "E" | "A" if self.peek() == Some("(") => {
                self.pos += 1;
                let a = self.implies();
                self.expect("U");
                let b = self.implies();
                self.expect(")");
                let (a, b) = (Box::new(a), Box::new(b));
                if t == "A" { Ctl::AU(a, b) } else { Ctl::EU(a, b) }
            }
            "E" | "A" if self.peek() != Some("[") => {
                let a = Box::new(self.unary());
                self.expect("U");
                let b = Box::new(self.unary());
                if t == "A" { Ctl::AU(a, b) } else { Ctl::EU(a, b) }
            }
            "E" => self.until(false),
            "A" => self.until(true),
            "(" => {
                let f = self.implies();
                self.expect(")");
                f
            }
            name => {
                let id = self.props.iter().position(|p| p == name);
                Ctl::Atom(PropId::new(id.unwrap_or_else(|| panic!("unknown proposition {name} in {:?}", self.text))))
            }
        }
    }
}
