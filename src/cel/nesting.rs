//! The nesting pre-scan: one pass over the text, before the parser sees it, estimating how deep
//! the parser and the passes after it (AST walks, evaluation, drop) recurse.
//!
//! The ANTLR parser recurses once per bracket and per ternary branch, and builds left-nested
//! trees for chains of binary operators, member selections, calls and indexes (`a.b.c`,
//! `1 + 2 + 3`), which its visitor, the AST walks and the evaluator then follow recursively;
//! a run of unary `!`/`-` nests in the AST. So the depth counted here is, at each point: the
//! enclosing brackets, plus the binary operators and `?` of the current chain inside the
//! innermost one, plus the selections, indexes and unary operators of the current operand.
//! `&&`, `||` and `,` start a fresh chain: the parser reads their operands in a loop (and
//! balances logic chains), so those operands nest side by side, not inside each other.
//!
//! Measured with `cel` 0.15 in a release build, a chain of `==` compiles on a 2 MiB stack (a
//! rayon worker's) up to about 4,300 operators and evaluates up to about 1,390; on the 8 MiB main
//! thread it compiles up to about 17,000. A debug build evaluates only about 64 on 2 MiB. The
//! parser itself refuses brackets and ternaries nested deeper than 96.
//!
//! Brackets and operators inside string literals are not counted.

/// Byte offset of the first character at which the depth exceeds `max`, if any.
pub(super) fn first_beyond(source: &str, max: usize) -> Option<usize> {
    let b = source.as_bytes();
    let mut frames: Vec<Frame> = Vec::new();
    let mut top = Frame::default();
    // The last byte that is not a space: tells an index `a[0]` from a list `[0]`.
    let mut last = 0u8;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let mut len = 1;
        match c {
            b'"' | b'\'' => {
                i = skip_string(b, i);
                last = c;
                continue;
            }
            b'(' | b'[' | b'{' => {
                if c == b'[' && (is_ident_byte(last) || matches!(last, b')' | b']' | b'}')) {
                    top.chain += 1;
                }
                let depth = top.depth() + 1;
                frames.push(top);
                top = Frame {
                    base: depth,
                    ..Frame::default()
                };
                if depth > max {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => top = frames.pop().unwrap_or_default(),
            b',' => top.restart(),
            b'&' | b'|' if b.get(i + 1) == Some(&c) => {
                top.restart();
                len = 2;
            }
            // A number's decimal point is not a selection.
            b'.' if !(last.is_ascii_digit() && is_number_end(b, i)) => top.chain += 1,
            b'!' | b'-' if !is_operand_end(last) => top.chain += 1,
            b'=' | b'!' | b'<' | b'>' if b.get(i + 1) == Some(&b'=') => {
                top.operator();
                len = 2;
            }
            b'?' | b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%' => top.operator(),
            b'i' if is_word(b, i, b"in") => {
                top.operator();
                len = 2;
            }
            _ if is_ident_byte(c) => len = word_len(b, i),
            _ => {}
        }
        if top.depth() > max {
            return Some(i);
        }
        if !c.is_ascii_whitespace() {
            last = b[i + len - 1];
        }
        i += len;
    }
    None
}

/// What is open inside one bracket.
#[derive(Debug, Default, Clone, Copy)]
struct Frame {
    /// Depth just inside the bracket.
    base: usize,
    /// Binary operators and ternaries of the current chain: each nests the chain so far.
    operators: usize,
    /// Selections, indexes and unary operators of the current operand.
    chain: usize,
}

impl Frame {
    fn depth(&self) -> usize {
        self.base + self.operators + self.chain
    }

    /// A binary operator: the operand before it is complete, and the next one nests one deeper.
    fn operator(&mut self) {
        self.operators += 1;
        self.chain = 0;
    }

    /// `,`, `&&`, `||`: the next operand is a sibling of the previous ones.
    fn restart(&mut self) {
        self.operators = 0;
        self.chain = 0;
    }
}

/// True when `last` ends an operand, so that a following `-`/`!` is binary (`a - b`, `a != b`).
fn is_operand_end(last: u8) -> bool {
    is_ident_byte(last) || matches!(last, b')' | b']' | b'}' | b'"' | b'\'')
}

/// True when the `.` at `i` follows digits that are a number, not the end of an identifier.
fn is_number_end(b: &[u8], i: usize) -> bool {
    let mut j = i;
    while j > 0 && is_ident_byte(b[j - 1]) {
        j -= 1;
    }
    b[j].is_ascii_digit()
}

fn is_word(b: &[u8], i: usize, word: &[u8]) -> bool {
    b[i..].starts_with(word)
        && (i == 0 || !is_ident_byte(b[i - 1]))
        && b.get(i + word.len()).is_none_or(|&c| !is_ident_byte(c))
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn word_len(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .take_while(|&&c| is_ident_byte(c))
        .count()
        .max(1)
}

/// End of the string literal starting at `i`: raw (`r"..."`) strings have no escapes, and
/// triple-quoted ones end only at three quotes.
pub(crate) fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let raw = i > 0 && matches!(b[i - 1], b'r' | b'R');
    let triple = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
    let mut j = i + if triple { 3 } else { 1 };
    while j < b.len() {
        if !raw && b[j] == b'\\' {
            j += 2;
            continue;
        }
        if b[j] == q && (!triple || (b.get(j + 1) == Some(&q) && b.get(j + 2) == Some(&q))) {
            return j + if triple { 3 } else { 1 };
        }
        j += 1;
    }
    b.len()
}
