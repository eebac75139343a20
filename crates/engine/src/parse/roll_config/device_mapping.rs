//! A safe, bounded evaluator for ROLL's `device_mapping` strings.
//!
//! ROLL runs a bare Python `eval()` on the YAML scalar
//! (`roll/configs/worker_config.py`). This module evaluates the small
//! subset of Python that real configs use — integer literals, `+ - * // **`,
//! `[…]` lists, tuples (`0,1,2,3`), `list(…)`, `tuple(…)`, `sorted(…)` and
//! `range(…)` — and says what Python would do:
//!
//! * [`Outcome::Ids`]: the device ids, in order;
//! * [`Outcome::Error`]: Python would raise (unbalanced brackets, a stray
//!   `;`, `list(8)`, a bare int that has no `len()`, …), with a message in
//!   Python's words;
//! * [`Outcome::Unknown`]: the expression is outside the subset (a list
//!   comprehension, a name we do not model, an OmegaConf `${…}`
//!   interpolation) or too large to materialise. Callers must not report
//!   anything for it: it may well be valid.
//!
//! Nothing here can hang or allocate without bound: the source is capped at
//! [`MAX_SRC`] bytes, nesting at [`MAX_DEPTH`], every list at [`MAX_IDS`]
//! elements, and integer arithmetic is checked.
//!
//! ```
//! use roll_doctor_engine::parse::roll_config::device_mapping::{eval, Outcome};
//! assert_eq!(eval("list(range(0,2))+list(range(14,16))"), Outcome::Ids(vec![0, 1, 14, 15]));
//! assert_eq!(eval("list(range(0,10**12))"), Outcome::Unknown);
//! assert!(matches!(eval("list(range(0,4)"), Outcome::Error(_)));
//! assert_eq!(eval("[i for i in range(8)]"), Outcome::Unknown);
//! ```

/// Largest list the evaluator materialises.
pub const MAX_IDS: usize = 16_384;
/// Longest source evaluated; longer strings are [`Outcome::Unknown`].
pub const MAX_SRC: usize = 4096;
/// Deepest nesting evaluated.
pub const MAX_DEPTH: usize = 48;

/// What Python would make of a `device_mapping` string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The device ids, in the order written.
    Ids(Vec<i64>),
    /// Python raises; the message uses Python's wording where it can.
    Error(String),
    /// Outside the modelled subset, an interpolation, or too large: say nothing.
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Name(String),
    LParen,
    RParen,
    LBrack,
    RBrack,
    Comma,
    Plus,
    Minus,
    Star,
    Pow,
    FloorDiv,
    /// Valid Python we do not model (`.`, `:`, `{`, `%`, strings, …).
    Other,
}

/// Why evaluation stopped.
enum Stop {
    /// Python would raise this.
    Py(String),
    /// We cannot tell.
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
enum Val {
    Int(i64),
    List(Vec<i64>),
    Tuple(Vec<i64>),
    Range(i64, i64, i64),
}

impl Val {
    fn type_name(&self) -> &'static str {
        match self {
            Val::Int(_) => "int",
            Val::List(_) => "list",
            Val::Tuple(_) => "tuple",
            Val::Range(..) => "range",
        }
    }
}

fn range_len(start: i64, stop: i64, step: i64) -> Option<u128> {
    let (a, b, s) = (start as i128, stop as i128, step as i128);
    let n = if s > 0 {
        if b > a {
            (b - a + s - 1) / s
        } else {
            0
        }
    } else if a > b {
        (a - b + (-s) - 1) / (-s)
    } else {
        0
    };
    u128::try_from(n).ok()
}

fn materialise(v: &Val) -> Result<Vec<i64>, Stop> {
    match v {
        Val::List(x) | Val::Tuple(x) => Ok(x.clone()),
        Val::Range(a, b, s) => {
            let n = range_len(*a, *b, *s).ok_or(Stop::Unknown)?;
            if n > MAX_IDS as u128 {
                return Err(Stop::Unknown);
            }
            let mut out = Vec::with_capacity(n as usize);
            let mut x = *a;
            for _ in 0..n {
                out.push(x);
                x = match x.checked_add(*s) {
                    Some(y) => y,
                    None => break,
                };
            }
            Ok(out)
        }
        Val::Int(_) => Err(Stop::Py(format!("TypeError: '{}' object is not iterable", v.type_name()))),
    }
}

fn tokenize(src: &str) -> Result<Vec<Tok>, Stop> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'0'..=b'9' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                    i += 1;
                }
                let lit = &src[start..i];
                out.push(int_literal(lit)?);
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push(Tok::Name(src[start..i].to_string()));
            }
            c @ (b'(' | b')' | b'[' | b']' | b',' | b'+' | b'-') => {
                out.push(match c {
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b'[' => Tok::LBrack,
                    b']' => Tok::RBrack,
                    b',' => Tok::Comma,
                    b'+' => Tok::Plus,
                    _ => Tok::Minus,
                });
                i += 1
            }
            b'*' => {
                if b.get(i + 1) == Some(&b'*') {
                    out.push(Tok::Pow);
                    i += 2
                } else {
                    out.push(Tok::Star);
                    i += 1
                }
            }
            b'/' => {
                if b.get(i + 1) == Some(&b'/') {
                    out.push(Tok::FloorDiv);
                    i += 2
                } else {
                    out.push(Tok::Other);
                    i += 1
                }
            }
            // Never valid in a Python expression.
            b';' | b'$' | b'?' | b'`' => return Err(Stop::Py("SyntaxError: invalid syntax".into())),
            _ => {
                // Strings, attribute access, slices, sets, comparisons, non-ASCII…
                out.push(Tok::Other);
                i += 1;
                while i < b.len() && !src.is_char_boundary(i) {
                    i += 1;
                }
            }
        }
    }
    Ok(out)
}

fn int_literal(lit: &str) -> Result<Tok, Stop> {
    if lit.contains('.') || lit.contains(['e', 'E', 'j', 'J']) && !lit.starts_with("0x") && !lit.starts_with("0X") {
        // A float or complex literal (or malformed): outside the subset.
        return Err(Stop::Unknown);
    }
    if lit.len() > 1 && lit.starts_with('0') {
        let rest = &lit[1..];
        if rest.bytes().all(|c| c == b'0' || c == b'_') {
            return Ok(Tok::Int(0));
        }
        if rest.bytes().all(|c| c.is_ascii_digit() || c == b'_') {
            return Err(Stop::Py("SyntaxError: leading zeros in decimal integer literals are not permitted".into()));
        }
        // 0x / 0o / 0b literals: outside the subset.
        return Err(Stop::Unknown);
    }
    if lit.ends_with('_') || lit.contains("__") {
        return Err(Stop::Py("SyntaxError: invalid decimal literal".into()));
    }
    let digits: String = lit.chars().filter(|c| *c != '_').collect();
    if !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(Stop::Py("SyntaxError: invalid decimal literal".into()));
    }
    digits.parse::<i64>().map(Tok::Int).map_err(|_| Stop::Unknown)
}

/// Checks bracket balance the way Python's tokenizer reports it.
fn brackets(src: &str) -> Result<(), String> {
    let mut stack: Vec<char> = Vec::new();
    for c in src.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match stack.pop() {
                    None => return Err(format!("SyntaxError: unmatched '{c}'")),
                    Some(o) if o != want => {
                        return Err(format!(
                            "SyntaxError: closing parenthesis '{c}' does not match opening parenthesis '{o}'"
                        ))
                    }
                    Some(_) => {}
                }
            }
            _ => {}
        }
    }
    match stack.last() {
        Some(o) => Err(format!("SyntaxError: '{o}' was never closed")),
        None => Ok(()),
    }
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Result<(), Stop> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Stop::Unknown)
        } else {
            Ok(())
        }
    }

    /// A top-level or parenthesised expression list: `a` or `a, b, …` (a tuple).
    fn expr_list(&mut self, closer: Option<&Tok>) -> Result<Val, Stop> {
        let first = self.expr()?;
        if self.peek() != Some(&Tok::Comma) {
            return Ok(first);
        }
        let mut items = vec![as_int_item(first)?];
        while self.eat(&Tok::Comma) {
            if self.peek().is_none() || self.peek() == closer {
                break;
            }
            let v = self.expr()?;
            items.push(as_int_item(v)?);
            if items.len() > MAX_IDS {
                return Err(Stop::Unknown);
            }
        }
        Ok(Val::Tuple(items))
    }

    fn expr(&mut self) -> Result<Val, Stop> {
        self.enter()?;
        let mut v = self.term()?;
        loop {
            if self.eat(&Tok::Plus) {
                let r = self.term()?;
                v = add(v, r)?;
            } else if self.eat(&Tok::Minus) {
                let r = self.term()?;
                v = match (&v, &r) {
                    (Val::Int(a), Val::Int(b)) => Val::Int(a.checked_sub(*b).ok_or(Stop::Unknown)?),
                    _ => return Err(bad_operands("-", &v, &r)),
                };
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok(v)
    }

    fn term(&mut self) -> Result<Val, Stop> {
        let mut v = self.factor()?;
        loop {
            if self.eat(&Tok::Star) {
                let r = self.factor()?;
                v = mul(v, r)?;
            } else if self.eat(&Tok::FloorDiv) {
                let r = self.factor()?;
                v = match (&v, &r) {
                    (Val::Int(_), Val::Int(0)) => {
                        return Err(Stop::Py("ZeroDivisionError: integer division or modulo by zero".into()))
                    }
                    (Val::Int(a), Val::Int(b)) => Val::Int(floor_div(*a, *b).ok_or(Stop::Unknown)?),
                    _ => return Err(bad_operands("//", &v, &r)),
                };
            } else {
                break;
            }
        }
        Ok(v)
    }

    fn factor(&mut self) -> Result<Val, Stop> {
        self.enter()?;
        let v = if self.eat(&Tok::Minus) {
            match self.factor()? {
                Val::Int(a) => Val::Int(a.checked_neg().ok_or(Stop::Unknown)?),
                other => {
                    return Err(Stop::Py(format!("TypeError: bad operand type for unary -: '{}'", other.type_name())))
                }
            }
        } else if self.eat(&Tok::Plus) {
            match self.factor()? {
                Val::Int(a) => Val::Int(a),
                other => {
                    return Err(Stop::Py(format!("TypeError: bad operand type for unary +: '{}'", other.type_name())))
                }
            }
        } else {
            self.power()?
        };
        self.depth -= 1;
        Ok(v)
    }

    fn power(&mut self) -> Result<Val, Stop> {
        let base = self.atom()?;
        if !self.eat(&Tok::Pow) {
            return Ok(base);
        }
        let exp = self.factor()?;
        match (&base, &exp) {
            (Val::Int(a), Val::Int(e)) => {
                if *e < 0 {
                    return Err(Stop::Unknown); // a float
                }
                let e = u32::try_from(*e).map_err(|_| Stop::Unknown)?;
                Ok(Val::Int(a.checked_pow(e).ok_or(Stop::Unknown)?))
            }
            _ => Err(bad_operands("** or pow()", &base, &exp)),
        }
    }

    fn atom(&mut self) -> Result<Val, Stop> {
        let tok = self.peek().cloned();
        match tok {
            Some(Tok::Int(v)) => {
                self.pos += 1;
                Ok(Val::Int(v))
            }
            Some(Tok::LBrack) => {
                self.pos += 1;
                let mut items = Vec::new();
                while !self.eat(&Tok::RBrack) {
                    let v = self.expr()?;
                    items.push(as_int_item(v)?);
                    if items.len() > MAX_IDS {
                        return Err(Stop::Unknown);
                    }
                    if !self.eat(&Tok::Comma) {
                        if self.eat(&Tok::RBrack) {
                            break;
                        }
                        return Err(Stop::Unknown);
                    }
                }
                Ok(Val::List(items))
            }
            Some(Tok::LParen) => {
                self.pos += 1;
                if self.eat(&Tok::RParen) {
                    return Ok(Val::Tuple(Vec::new()));
                }
                self.enter()?;
                let v = self.expr_list(Some(&Tok::RParen))?;
                self.depth -= 1;
                if !self.eat(&Tok::RParen) {
                    return Err(Stop::Unknown);
                }
                Ok(v)
            }
            Some(Tok::Name(name)) => {
                self.pos += 1;
                if !self.eat(&Tok::LParen) {
                    return Err(Stop::Unknown); // a bare name: True, a variable, …
                }
                let mut args = Vec::new();
                while !self.eat(&Tok::RParen) {
                    if matches!(self.peek(), Some(Tok::Name(_))) && self.toks.get(self.pos + 1) == Some(&Tok::Other) {
                        return Err(Stop::Unknown); // keyword argument
                    }
                    args.push(self.expr()?);
                    if args.len() > 8 {
                        return Err(Stop::Unknown);
                    }
                    if !self.eat(&Tok::Comma) {
                        if self.eat(&Tok::RParen) {
                            break;
                        }
                        return Err(Stop::Unknown);
                    }
                }
                call(&name, args)
            }
            _ => Err(Stop::Unknown),
        }
    }
}

fn as_int_item(v: Val) -> Result<i64, Stop> {
    match v {
        Val::Int(i) => Ok(i),
        // A nested list or range is valid Python but not a device id list we model.
        _ => Err(Stop::Unknown),
    }
}

fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

fn bad_operands(op: &str, a: &Val, b: &Val) -> Stop {
    Stop::Py(format!("TypeError: unsupported operand type(s) for {op}: '{}' and '{}'", a.type_name(), b.type_name()))
}

fn add(a: Val, b: Val) -> Result<Val, Stop> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Ok(Val::Int(x.checked_add(y).ok_or(Stop::Unknown)?)),
        (Val::List(mut x), Val::List(y)) => {
            if x.len() + y.len() > MAX_IDS {
                return Err(Stop::Unknown);
            }
            x.extend(y);
            Ok(Val::List(x))
        }
        (Val::Tuple(mut x), Val::Tuple(y)) => {
            if x.len() + y.len() > MAX_IDS {
                return Err(Stop::Unknown);
            }
            x.extend(y);
            Ok(Val::Tuple(x))
        }
        (Val::List(_), other) => {
            Err(Stop::Py(format!("TypeError: can only concatenate list (not \"{}\") to list", other.type_name())))
        }
        (Val::Tuple(_), other) => {
            Err(Stop::Py(format!("TypeError: can only concatenate tuple (not \"{}\") to tuple", other.type_name())))
        }
        (a, b) => Err(bad_operands("+", &a, &b)),
    }
}

fn mul(a: Val, b: Val) -> Result<Val, Stop> {
    let repeat = |x: Vec<i64>, n: i64, tuple: bool| -> Result<Val, Stop> {
        let n = usize::try_from(n.max(0)).map_err(|_| Stop::Unknown)?;
        if x.len().checked_mul(n).is_none_or(|t| t > MAX_IDS) {
            return Err(Stop::Unknown);
        }
        let v = x.repeat(n);
        Ok(if tuple { Val::Tuple(v) } else { Val::List(v) })
    };
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Ok(Val::Int(x.checked_mul(y).ok_or(Stop::Unknown)?)),
        (Val::List(x), Val::Int(n)) | (Val::Int(n), Val::List(x)) => repeat(x, n, false),
        (Val::Tuple(x), Val::Int(n)) | (Val::Int(n), Val::Tuple(x)) => repeat(x, n, true),
        (a, b) => Err(bad_operands("*", &a, &b)),
    }
}

fn call(name: &str, args: Vec<Val>) -> Result<Val, Stop> {
    match name {
        "range" => {
            if args.is_empty() {
                return Err(Stop::Py("TypeError: range expected at least 1 argument, got 0".into()));
            }
            if args.len() > 3 {
                return Err(Stop::Py(format!("TypeError: range expected at most 3 arguments, got {}", args.len())));
            }
            let mut ints = Vec::with_capacity(3);
            for a in &args {
                match a {
                    Val::Int(i) => ints.push(*i),
                    other => {
                        return Err(Stop::Py(format!(
                            "TypeError: '{}' object cannot be interpreted as an integer",
                            other.type_name()
                        )))
                    }
                }
            }
            let (start, stop, step) = match ints.as_slice() {
                [b] => (0, *b, 1),
                [a, b] => (*a, *b, 1),
                [a, b, s] => (*a, *b, *s),
                _ => return Err(Stop::Unknown),
            };
            if step == 0 {
                return Err(Stop::Py("ValueError: range() arg 3 must not be zero".into()));
            }
            Ok(Val::Range(start, stop, step))
        }
        "list" | "tuple" | "sorted" => {
            if args.len() > 1 {
                let what = if name == "sorted" { "sorted expected 1 argument" } else { name };
                return Err(Stop::Py(if name == "sorted" {
                    format!("TypeError: {what}, got {}", args.len())
                } else {
                    format!("TypeError: {what} expected at most 1 argument, got {}", args.len())
                }));
            }
            let items = match args.first() {
                None if name == "sorted" => {
                    return Err(Stop::Py("TypeError: sorted expected 1 argument, got 0".into()))
                }
                None => Vec::new(),
                Some(v) => materialise(v)?,
            };
            Ok(match name {
                "tuple" => Val::Tuple(items),
                "sorted" => {
                    let mut s = items;
                    s.sort_unstable();
                    Val::List(s)
                }
                _ => Val::List(items),
            })
        }
        _ => Err(Stop::Unknown),
    }
}

/// Evaluates a `device_mapping` string as ROLL's `eval()` would.
pub fn eval(src: &str) -> Outcome {
    if src.len() > MAX_SRC || src.contains("${") {
        return Outcome::Unknown;
    }
    if src.trim().is_empty() {
        return Outcome::Error("SyntaxError: invalid syntax (empty expression)".into());
    }
    // Strings could hide brackets; we do not model them.
    if src.contains(['\'', '"', '#']) {
        return Outcome::Unknown;
    }
    if let Err(e) = brackets(src) {
        return Outcome::Error(e);
    }
    let toks = match tokenize(src) {
        Ok(t) => t,
        Err(Stop::Py(e)) => return Outcome::Error(e),
        Err(Stop::Unknown) => return Outcome::Unknown,
    };
    let mut p = Parser { toks, pos: 0, depth: 0 };
    let v = match p.expr_list(None) {
        Ok(v) => v,
        Err(Stop::Py(e)) => return Outcome::Error(e),
        Err(Stop::Unknown) => return Outcome::Unknown,
    };
    if p.pos != p.toks.len() {
        // Two values side by side (`0 1`), or a construct we do not model.
        let juxtaposed = matches!(
            (p.toks.get(p.pos.wrapping_sub(1)), p.toks.get(p.pos)),
            (Some(Tok::Int(_) | Tok::RParen | Tok::RBrack), Some(Tok::Int(_)))
        );
        return if juxtaposed { Outcome::Error("SyntaxError: invalid syntax".into()) } else { Outcome::Unknown };
    }
    match v {
        Val::Int(_) => Outcome::Error("TypeError: object of type 'int' has no len()".into()),
        other => match materialise(&other) {
            Ok(ids) => Outcome::Ids(ids),
            Err(Stop::Py(e)) => Outcome::Error(e),
            Err(Stop::Unknown) => Outcome::Unknown,
        },
    }
}

/// Writes ids compactly: ascending runs as `a-b`, joined with commas
/// (`[0, 1, 14, 15]` → `0-1,14-15`).
pub fn compact(ids: &[i64]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < ids.len() {
        let start = ids[i];
        let mut j = i;
        while j + 1 < ids.len() && ids[j].checked_add(1) == Some(ids[j + 1]) {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if j > i {
            out.push_str(&format!("{start}-{}", ids[j]));
        } else {
            out.push_str(&start.to_string());
        }
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[i64]) -> Outcome {
        Outcome::Ids(v.to_vec())
    }

    #[test]
    fn forms_seen_in_roll_configs() {
        assert_eq!(eval("list(range(0,8))"), ids(&[0, 1, 2, 3, 4, 5, 6, 7]));
        assert_eq!(eval("list(range(8, 12))"), ids(&[8, 9, 10, 11]));
        assert_eq!(eval("list([0,1,2,3,8,9,10,11])"), ids(&[0, 1, 2, 3, 8, 9, 10, 11]));
        assert_eq!(eval("[1]"), ids(&[1]));
        assert_eq!(eval("[6, 7]"), ids(&[6, 7]));
        assert_eq!(eval("list(range(0,2))+list(range(14,16))"), ids(&[0, 1, 14, 15]));
        assert_eq!(eval("range(0,4)"), ids(&[0, 1, 2, 3]));
        assert_eq!(eval("0,1,2,3"), ids(&[0, 1, 2, 3]));
        assert_eq!(eval("(0,1,)"), ids(&[0, 1]));
        assert_eq!(eval("list(range(0, 16, 2))"), ids(&[0, 2, 4, 6, 8, 10, 12, 14]));
        assert_eq!(eval("list(range(8*1, 8*2))"), ids(&[8, 9, 10, 11, 12, 13, 14, 15]));
        assert_eq!(eval("list(range(16//2))").clone(), ids(&[0, 1, 2, 3, 4, 5, 6, 7]));
        assert_eq!(eval("[0]*2"), ids(&[0, 0]));
        assert_eq!(eval("sorted([3,1,2])"), ids(&[1, 2, 3]));
        assert_eq!(eval("list(range(4, 0, -1))"), ids(&[4, 3, 2, 1]));
        assert_eq!(eval("[]"), ids(&[]));
    }

    #[test]
    fn python_errors() {
        assert_eq!(eval("list(range(0,4)"), Outcome::Error("SyntaxError: '(' was never closed".into()));
        assert_eq!(eval("list(range(0,4)))"), Outcome::Error("SyntaxError: unmatched ')'".into()));
        assert!(matches!(eval("list(range(0,4]"), Outcome::Error(e) if e.contains("does not match")));
        assert!(matches!(eval("list(range(0;4))"), Outcome::Error(_)));
        assert!(matches!(eval("4"), Outcome::Error(e) if e.contains("has no len()")));
        assert!(matches!(eval("0-7"), Outcome::Error(e) if e.contains("has no len()")));
        assert!(matches!(eval("list(8)"), Outcome::Error(e) if e.contains("not iterable")));
        assert!(matches!(eval("range(0,8)+range(8,16)"), Outcome::Error(e) if e.contains("unsupported operand")));
        assert!(matches!(eval("list(range(0,8))+range(8,16)"), Outcome::Error(e) if e.contains("concatenate")));
        assert!(matches!(eval("range(0,8,0)"), Outcome::Error(e) if e.contains("must not be zero")));
        assert!(matches!(eval("range()"), Outcome::Error(_)));
        assert!(matches!(eval("08"), Outcome::Error(e) if e.contains("leading zeros")));
        assert!(matches!(eval("[0 1]"), Outcome::Error(_) | Outcome::Unknown));
        assert!(matches!(eval("0 1"), Outcome::Error(_)));
        assert!(matches!(eval("  "), Outcome::Error(_)));
        assert!(matches!(eval("1//0"), Outcome::Error(e) if e.contains("ZeroDivisionError")));
    }

    #[test]
    fn unknown_means_silence() {
        for s in [
            "[i for i in range(8)]",
            "np.arange(8)",
            "list(range(0,${n}))",
            "list(range(0,10**12))",
            "list(range(0, 2**62))",
            "10**100",
            "{0, 1}",
            "[[0,1],[2,3]]",
            "list(range(0, 8.0))",
            "\"[0,1]\"",
            "devices",
            "list(map(int, '0,1'))",
        ] {
            assert_eq!(eval(s), Outcome::Unknown, "{s}");
        }
    }

    #[test]
    fn bounded() {
        let deep = format!("{}0{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(eval(&deep), Outcome::Unknown);
        let deep = format!("{}0{}", "-".repeat(3000), "");
        assert_eq!(eval(&deep), Outcome::Unknown);
        assert_eq!(eval("[0]*100000000000"), Outcome::Unknown);
        assert_eq!(eval("list(range(-9223372036854775807, 9223372036854775807))"), Outcome::Unknown);
    }

    #[test]
    fn compact_runs() {
        assert_eq!(compact(&[0, 1, 14, 15]), "0-1,14-15");
        assert_eq!(compact(&[3]), "3");
        assert_eq!(compact(&[]), "");
        assert_eq!(compact(&[2, 1, 0]), "2,1,0");
        assert_eq!(compact(&[i64::MAX - 1, i64::MAX]), format!("{}-{}", i64::MAX - 1, i64::MAX));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,200}") {
            let _ = eval(&s);
        }

        #[test]
        fn never_panics_on_expression_like_input(s in "[-+*/()\\[\\], 0-9a-z_]{0,120}") {
            let _ = eval(&s);
        }

        #[test]
        fn ranges_agree_with_python(a in -50i64..50, b in -50i64..50, step in proptest::prop_oneof![-5i64..-1, 1i64..5]) {
            let want: Vec<i64> = if step > 0 {
                (a..b).step_by(step as usize).collect()
            } else {
                let mut v = Vec::new();
                let mut x = a;
                while x > b { v.push(x); x += step; }
                v
            };
            proptest::prop_assert_eq!(eval(&format!("list(range({a}, {b}, {step}))")), Outcome::Ids(want));
        }
    }
}
