//! Words as vectors of BDDs, one per bit: the BDD engine's word operators, bit by bit.
//!
//! A word expression that [`super::expr`] can write as one function of the state (a word
//! variable, a constant, an operator over such words, a `case` choosing among them) is a
//! [`Bits`]: the BDD of each bit, least significant first, and the signedness. Operators are
//! circuits over those BDDs, as NuSMV builds them for words (ripple-carry adders, shift-and-add
//! multiplication, restoring division, comparators), so `a + b` on two 32-bit words costs 32
//! full adders instead of the 2^64 value pairs that the value-by-value evaluation would
//! enumerate. Their meaning is [`crate::ir::words`]' (modulo 2^width, two's complement,
//! division truncating toward zero), which the tests check exhaustively on small widths.
//!
//! Assumes the operands of a binary operator have the width and signedness that the type
//! checker requires ([`Bits::same_type`] says whether they do; the caller falls back to the
//! value-by-value evaluation when not). Errors (a zero divisor, a shift amount out of range) are
//! the caller's: these functions compute the result where the operation is defined.

use super::{Bdd, SymResult};
use oxidd::BooleanFunction;

/// A word-valued function of the state: `bits[i]` is where bit `i` (0: least significant) is 1.
#[derive(Clone)]
pub(crate) struct Bits {
    pub bits: Vec<Bdd>,
    pub signed: bool,
}

/// The constant BDDs the circuits start from.
#[derive(Clone)]
pub(crate) struct Consts {
    pub t: Bdd,
    pub f: Bdd,
}

impl Bits {
    pub(crate) fn width(&self) -> usize {
        self.bits.len()
    }

    /// The constant word `pattern` of `width` bits.
    pub(crate) fn constant(k: &Consts, pattern: u64, width: u8, signed: bool) -> Bits {
        let bits = (0..u32::from(width)).map(|i| if i < 64 && pattern >> i & 1 == 1 { k.t.clone() } else { k.f.clone() }).collect();
        Bits { bits, signed }
    }

    /// Same width and signedness.
    pub(crate) fn same_type(&self, other: &Bits) -> bool {
        self.width() == other.width() && self.signed == other.signed
    }

    fn with(&self, bits: Vec<Bdd>) -> Bits {
        Bits { bits, signed: self.signed }
    }

    /// The sign bit of a signed word, `f` for an unsigned one.
    fn sign(&self, k: &Consts) -> Bdd {
        match self.bits.last() {
            Some(b) if self.signed => b.clone(),
            _ => k.f.clone(),
        }
    }

    pub(crate) fn not(&self) -> SymResult<Bits> {
        Ok(self.with(self.bits.iter().map(|b| b.not()).collect::<Result<_, _>>()?))
    }

    /// A bitwise connective applied to each pair of bits.
    pub(crate) fn bitwise(&self, other: &Bits, op: impl Fn(&Bdd, &Bdd) -> SymResult<Bdd>) -> SymResult<Bits> {
        Ok(self.with(self.bits.iter().zip(&other.bits).map(|(a, b)| op(a, b)).collect::<SymResult<_>>()?))
    }

    /// `self + other + carry`, modulo 2^width (ripple carry).
    fn add_carry(&self, other: &Bits, mut carry: Bdd) -> SymResult<Bits> {
        let mut out = Vec::with_capacity(self.width());
        for (a, b) in self.bits.iter().zip(&other.bits) {
            let half = a.xor(b)?;
            out.push(half.xor(&carry)?);
            carry = a.and(b)?.or(&half.and(&carry)?)?;
        }
        Ok(self.with(out))
    }

    pub(crate) fn add(&self, other: &Bits, k: &Consts) -> SymResult<Bits> {
        self.add_carry(other, k.f.clone())
    }

    pub(crate) fn sub(&self, other: &Bits, k: &Consts) -> SymResult<Bits> {
        self.add_carry(&other.not()?, k.t.clone())
    }

    pub(crate) fn neg(&self, k: &Consts) -> SymResult<Bits> {
        Bits::constant(k, 0, self.width() as u8, self.signed).sub(self, k)
    }

    /// `self * other` modulo 2^width: the partial products `other[i] ? self << i : 0`, summed.
    pub(crate) fn mul(&self, other: &Bits, k: &Consts) -> SymResult<Bits> {
        let w = self.width();
        let mut acc = Bits::constant(k, 0, w as u8, self.signed);
        for (i, b) in other.bits.iter().enumerate() {
            let mut partial = vec![k.f.clone(); w];
            for (p, a) in partial[i..].iter_mut().zip(&self.bits) {
                *p = a.and(b)?;
            }
            acc = acc.add(&self.with(partial), k)?;
        }
        Ok(acc)
    }

    /// Where `self = other`.
    pub(crate) fn eq(&self, other: &Bits, k: &Consts) -> SymResult<Bdd> {
        let mut r = k.t.clone();
        for (a, b) in self.bits.iter().zip(&other.bits) {
            r = r.and(&a.equiv(b)?)?;
        }
        Ok(r)
    }

    /// Where `self < other` as unsigned patterns (from the least significant bit up: a higher
    /// bit that differs decides).
    fn unsigned_less(a: &[Bdd], b: &[Bdd], k: &Consts) -> SymResult<Bdd> {
        let mut lt = k.f.clone();
        for (x, y) in a.iter().zip(b) {
            lt = x.not()?.and(y)?.or(&x.equiv(y)?.and(&lt)?)?;
        }
        Ok(lt)
    }

    /// Where `self < other` as numbers of their signedness: a signed comparison is the unsigned
    /// one with both sign bits flipped.
    pub(crate) fn less(&self, other: &Bits, k: &Consts) -> SymResult<Bdd> {
        if !self.signed || self.bits.is_empty() {
            return Bits::unsigned_less(&self.bits, &other.bits, k);
        }
        let flip = |w: &Bits| -> SymResult<Vec<Bdd>> {
            let mut bits = w.bits.clone();
            let top = bits.len() - 1;
            bits[top] = bits[top].not()?;
            Ok(bits)
        };
        Bits::unsigned_less(&flip(self)?, &flip(other)?, k)
    }

    /// `self << n` (`left`) or `self >> n` for a constant `n` in 0..=width; `>>` on a signed word
    /// copies the sign bit in.
    pub(crate) fn shift(&self, left: bool, n: usize, k: &Consts) -> Bits {
        let w = self.width();
        let fill = if left { k.f.clone() } else { self.sign(k) };
        let bits = (0..w)
            .map(|i| {
                let from = if left { i.checked_sub(n) } else { i.checked_add(n).filter(|&j| j < w) };
                from.map_or_else(|| fill.clone(), |j| self.bits[j].clone())
            })
            .collect();
        self.with(bits)
    }

    /// `high :: low`: `low`'s bits, then `high`'s; unsigned.
    pub(crate) fn concat(high: &Bits, low: &Bits) -> Bits {
        Bits { bits: low.bits.iter().chain(&high.bits).cloned().collect(), signed: false }
    }

    /// `w[hi : lo]` (unsigned); `None` when the bits are not all there.
    pub(crate) fn select(&self, hi: u8, lo: u8) -> Option<Bits> {
        let (hi, lo) = (usize::from(hi), usize::from(lo));
        (lo <= hi && hi < self.width()).then(|| Bits { bits: self.bits[lo..=hi].to_vec(), signed: false })
    }

    /// `resize(w, to)` / `extend`: as [`crate::ir::words`]' `resize`.
    pub(crate) fn resize(&self, to: u8, k: &Consts) -> Bits {
        let (w, to) = (self.width(), usize::from(to));
        let mut bits = self.bits.clone();
        if to >= w {
            let fill = self.sign(k);
            bits.resize(to, fill);
        } else if !self.signed || to == 0 {
            bits.truncate(to);
        } else {
            // A signed word keeps its sign bit and its `to − 1` low bits.
            let sign = self.bits[w - 1].clone();
            bits.truncate(to - 1);
            bits.push(sign);
        }
        self.with(bits)
    }

    /// The same bits with the given signedness.
    pub(crate) fn reinterpret(&self, signed: bool) -> Bits {
        Bits { bits: self.bits.clone(), signed }
    }

    /// Bitwise `cond ? a : b`.
    pub(crate) fn mux(cond: &Bdd, a: &Bits, b: &Bits) -> SymResult<Bits> {
        Ok(a.with(a.bits.iter().zip(&b.bits).map(|(x, y)| cond.ite(x, y)).collect::<Result<_, _>>()?))
    }

    /// Where `self` is zero.
    pub(crate) fn is_zero(&self, k: &Consts) -> SymResult<Bdd> {
        let mut r = k.t.clone();
        for b in &self.bits {
            r = r.and(&b.not()?)?;
        }
        Ok(r)
    }

    /// Unsigned `(self / other, self mod other)` by restoring division, where `other` is not
    /// zero (anything where it is).
    fn unsigned_divide(&self, other: &Bits, k: &Consts) -> SymResult<(Vec<Bdd>, Vec<Bdd>)> {
        let w = self.width();
        // The partial remainder has one bit more than the word, so that shifting in a bit of
        // the dividend never drops one.
        let mut rem: Vec<Bdd> = vec![k.f.clone(); w + 1];
        let mut divisor = other.bits.clone();
        divisor.push(k.f.clone());
        let mut quotient = vec![k.f.clone(); w];
        for i in (0..w).rev() {
            rem.pop();
            rem.insert(0, self.bits[i].clone());
            let below = Bits::unsigned_less(&rem, &divisor, k)?;
            let fits = below.not()?;
            let diff = Bits { bits: rem.clone(), signed: false }.sub(&Bits { bits: divisor.clone(), signed: false }, k)?;
            rem = rem.iter().zip(&diff.bits).map(|(r, d)| fits.ite(d, r)).collect::<Result<_, _>>()?;
            quotient[i] = fits;
        }
        rem.truncate(w);
        Ok((quotient, rem))
    }

    /// `self / other` (`quotient`) or `self mod other`, where `other` is not zero: unsigned words
    /// divide their patterns; signed ones truncate toward zero and the remainder has the
    /// dividend's sign.
    pub(crate) fn divide(&self, other: &Bits, quotient: bool, k: &Consts) -> SymResult<Bits> {
        if !self.signed {
            let (q, r) = self.unsigned_divide(other, k)?;
            return Ok(self.with(if quotient { q } else { r }));
        }
        let (sa, sb) = (self.sign(k), other.sign(k));
        let abs = |w: &Bits, s: &Bdd| -> SymResult<Bits> { Bits::mux(s, &w.neg(k)?, w) };
        let (a, b) = (abs(self, &sa)?.reinterpret(false), abs(other, &sb)?.reinterpret(false));
        let (q, r) = a.unsigned_divide(&b, k)?;
        let (q, r) = (Bits { bits: q, signed: true }, Bits { bits: r, signed: true });
        if quotient {
            let negative = sa.xor(&sb)?;
            Bits::mux(&negative, &q.neg(k)?, &q)
        } else {
            Bits::mux(&sa, &r.neg(k)?, &r)
        }
    }
}

#[cfg(test)]
mod tests {
    //! Every operator on every pair of 3-bit words (and shift amounts, widths of the results),
    //! as the BDD engine builds it from a model, against [`crate::ir::words`]: the initial
    //! states of `INIT r = a OP b` (free `a`, `b`, `r`) are exactly the triples it computes.

    use crate::ir::words;
    use crate::ir::{BinOp, Builtin, UnOp, Value};
    use crate::symbolic::SymbolicModel;

    fn model(text: &str) -> SymbolicModel {
        let file = crate::source::SourceFile::new("words.smv", text);
        let (program, diags) = crate::frontend::load(&file, None);
        let program = program.unwrap_or_else(|| panic!("{text}\n{diags:?}"));
        SymbolicModel::build(&program, None, 1).unwrap_or_else(|_| panic!("not built:\n{text}"))
    }

    fn word(bits: u64, width: u8, signed: bool) -> Value {
        Value::Word { bits, width, signed }
    }

    /// Whether the initial states of `m` hold the state with these value indices.
    fn initial(m: &SymbolicModel, values: &[u32]) -> bool {
        m.init.and(&m.enc.state_cube(values).unwrap()).unwrap().satisfiable()
    }

    fn ty(signed: bool, width: u8) -> String {
        format!("{} word[{width}]", if signed { "signed" } else { "unsigned" })
    }

    use oxidd::BooleanFunction;

    /// `r = a OP b` for every pair, the result a word of `out_width` (or a boolean).
    fn check_binary(op: BinOp, text_op: &str, signed: bool, guard: &str, result: Option<(u8, bool)>) {
        let t = ty(signed, 3);
        let r_ty = match result {
            Some((w, s)) => ty(s, w),
            None => "boolean".into(),
        };
        let text = format!("MODULE main\nVAR a : {t}; b : {t}; r : {r_ty};\nINIT {guard}r = (a {text_op} b)\n");
        let m = model(&text);
        let r_len = result.map_or(2, |(w, _)| 1u64 << w);
        for a in 0..8u64 {
            for b in 0..8u64 {
                let expected = match words::binary(op, word(a, 3, signed), word(b, 3, signed)) {
                    Ok(v) => v,
                    Err(words::WordError::DivisionByZero) => continue,
                    Err(e) => panic!("{e:?}"),
                };
                for r in 0..r_len {
                    let value = match result {
                        Some((w, s)) => word(r, w, s),
                        None => Value::Bool(r == 1),
                    };
                    let holds = initial(&m, &[a as u32, b as u32, r as u32]);
                    assert_eq!(holds, value == expected, "{text}a = {a}, b = {b}, r = {r}");
                }
            }
        }
    }

    #[test]
    fn arithmetic_bitwise_and_comparisons_match_the_word_semantics() {
        let ops = [(BinOp::Add, "+"), (BinOp::Sub, "-"), (BinOp::Mul, "*"), (BinOp::And, "&"), (BinOp::Or, "|"), (BinOp::Xor, "xor"), (BinOp::Xnor, "xnor")];
        for signed in [false, true] {
            for (op, text) in ops {
                check_binary(op, text, signed, "", Some((3, signed)));
            }
            for (op, text) in [(BinOp::Div, "/"), (BinOp::Mod, "mod")] {
                let zero = if signed { "0sd3_0" } else { "0ud3_0" };
                check_binary(op, text, signed, &format!("b != {zero} -> "), Some((3, signed)));
            }
            for (op, text) in [(BinOp::Lt, "<"), (BinOp::Le, "<="), (BinOp::Gt, ">"), (BinOp::Ge, ">="), (BinOp::Eq, "="), (BinOp::Ne, "!=")] {
                check_binary(op, text, signed, "", None);
            }
            check_binary(BinOp::Concat, "::", signed, "", Some((6, false)));
        }
    }

    #[test]
    fn shifts_unary_operators_and_conversions_match_the_word_semantics() {
        for signed in [false, true] {
            let t = ty(signed, 3);
            for (op, text) in [(BinOp::Shl, "<<"), (BinOp::Shr, ">>")] {
                let m = model(&format!("MODULE main\nVAR a : {t}; n : 0..3; r : {t};\nINIT r = (a {text} n)\n"));
                for a in 0..8u64 {
                    for n in 0..4u64 {
                        let expected = words::binary(op, word(a, 3, signed), Value::Int(n as i64)).unwrap();
                        for r in 0..8u64 {
                            assert_eq!(initial(&m, &[a as u32, n as u32, r as u32]), word(r, 3, signed) == expected, "{op:?} {a} {n} {r}");
                        }
                    }
                }
            }
            type Expected = Box<dyn Fn(Value) -> Value>;
            let cases: [(&str, u8, bool, Expected); 7] = [
                ("!a", 3, signed, Box::new(|v| words::unary(UnOp::Not, v).unwrap())),
                ("-a", 3, signed, Box::new(|v| words::unary(UnOp::Neg, v).unwrap())),
                ("extend(a, 2)", 5, signed, Box::new(|v| words::builtin(Builtin::Resize(5), &[v]).unwrap())),
                ("resize(a, 2)", 2, signed, Box::new(|v| words::builtin(Builtin::Resize(2), &[v]).unwrap())),
                ("a[2:1]", 2, false, Box::new(|v| words::builtin(Builtin::Select(2, 1), &[v]).unwrap())),
                ("unsigned(a)", 3, false, Box::new(|v| words::builtin(Builtin::Unsigned, &[v]).unwrap())),
                ("signed(a)", 3, true, Box::new(|v| words::builtin(Builtin::Signed, &[v]).unwrap())),
            ];
            for (text, width, rs, expected) in cases {
                if (text == "unsigned(a)" && !signed) || (text == "signed(a)" && signed) {
                    continue;
                }
                let m = model(&format!("MODULE main\nVAR a : {t}; r : {};\nINIT r = {text}\n", ty(rs, width)));
                for a in 0..8u64 {
                    let e = expected(word(a, 3, signed));
                    for r in 0..1u64 << width {
                        assert_eq!(initial(&m, &[a as u32, r as u32]), word(r, width, rs) == e, "{text} {a} {r}");
                    }
                }
            }
        }
    }

    #[test]
    fn words_of_31_bits_are_encoded_bit_by_bit() {
        // (Before the bits, a word of more than 2^16 values was refused: E0508.)
        let m = model(
            "MODULE main\nVAR x : unsigned word[31]; y : unsigned word[31];\nASSIGN init(x) := 0ud31_3; init(y) := 0ud31_1;\n  next(x) := 0ud31_0 - x; next(y) := y * 0ud31_2;\nINVARSPEC x != 0ud31_5\n",
        );
        assert_eq!(m.enc.num_bdd_vars(), 124);
        assert!(initial(&m, &[3, 1]));
        // One step: x = 2^31 - 3, y = 2. `y` doubles until it wraps to 0 (2^0 … 2^30, 0) while
        // `x` alternates: 31 states, then 0 with each value of `x`.
        let step = m.trans.image(&m.enc, &m.init).unwrap();
        assert!(step.and(&m.enc.state_cube(&[(1 << 31) - 3, 2]).unwrap()).unwrap().satisfiable());
        assert_eq!(m.enc.count_states(&step), 1.0);
        assert_eq!(m.enc.count_states(&m.reach), 33.0);
        assert!(m.reach.and(&m.enc.state_cube(&[3, 1 << 30]).unwrap()).unwrap().satisfiable());
    }
}
