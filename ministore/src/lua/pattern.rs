//! Lua 5.1 patterns: the matcher behind `string.find`, `match`, `gmatch` and `gsub`.
//!
//! It follows Lua 5.1's semantics item for item — character classes (`%a %c %d %l %p %s %u %w
//! %x %z` and their upper-case complements, ASCII only as in the C locale), sets `[...]`, `.`,
//! the quantifiers `* + - ?`, captures (position captures `()` included), back-references
//! `%1`–`%9`, `%b` and `%f` — and words its errors as Lua does. As in Lua 5.1 a pattern ends at
//! its first NUL byte (callers pass the pattern cut there).
//!
//! Matching backtracks recursively like Lua's; recursion is capped (past [`MAX_DEPTH`] the match
//! fails with "pattern too complex") so a hostile pattern cannot overflow the native stack, and
//! every step is counted against a budget so it cannot run for ever either.

/// Most captures one pattern may open (Lua's `LUA_MAXCAPTURES`).
pub const MAX_CAPTURES: usize = 32;
/// Deepest backtracking recursion allowed.
pub const MAX_DEPTH: u32 = 250;

/// Why a match stopped without an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// A pattern error, worded as Lua words it (without the `user_script:n:` prefix).
    Bad(&'static str),
    /// The step budget ran out.
    Budget,
}

const UNFINISHED: isize = -1;
const POSITION: isize = -2;

/// One capture's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// The bytes `start..end` of the subject.
    Text(usize, usize),
    /// A position capture: a 1-based subject position.
    Position(usize),
}

/// Matching state for one subject and one pattern.
pub struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    capture: [(usize, isize); MAX_CAPTURES],
    depth: u32,
    steps: u64,
    max_steps: u64,
}

/// The characters that make a pattern more than a plain string for `string.find`.
pub fn has_specials(pat: &[u8]) -> bool {
    pat.iter()
        .take_while(|&&c| c != 0)
        .any(|c| b"^$*+?.([%-".contains(c))
}

/// The pattern as Lua 5.1 sees it: up to its first NUL.
pub fn until_nul(pat: &[u8]) -> &[u8] {
    match pat.iter().position(|&c| c == 0) {
        Some(n) => &pat[..n],
        None => pat,
    }
}

/// `cl` (the letter after `%`) matches `c`.
fn class_matches(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => crate::strtod::is_c_space(c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return cl == c,
    };
    if cl.is_ascii_uppercase() {
        !res
    } else {
        res
    }
}

impl<'a> Matcher<'a> {
    /// A matcher of `pat` (already cut at its first NUL) against `src`, allowed `max_steps`.
    pub fn new(src: &'a [u8], pat: &'a [u8], max_steps: u64) -> Self {
        Matcher {
            src,
            pat,
            level: 0,
            capture: [(0, 0); MAX_CAPTURES],
            depth: 0,
            steps: 0,
            max_steps,
        }
    }

    /// Steps spent so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The pattern byte at `i`, 0 past its end (Lua reads a C string).
    fn p(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    /// The subject byte at `i`, 0 past its end.
    fn s(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn tick(&mut self) -> Result<(), PatternError> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(PatternError::Budget);
        }
        Ok(())
    }

    /// Tries the pattern from pattern position `p` at subject position `s`: the end of the match.
    pub fn match_at(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        self.level = 0;
        self.depth = 0;
        self.do_match(s, p)
    }

    /// Where the item at `p` ends (just past a class, a set or a single character).
    fn class_end(&self, mut p: usize) -> Result<usize, PatternError> {
        let c = self.p(p);
        p += 1;
        if c == b'%' {
            if p >= self.pat.len() {
                return Err(PatternError::Bad("malformed pattern (ends with '%')"));
            }
            return Ok(p + 1);
        }
        if c == b'[' {
            if self.p(p) == b'^' {
                p += 1;
            }
            loop {
                if p >= self.pat.len() {
                    return Err(PatternError::Bad("malformed pattern (missing ']')"));
                }
                let c = self.p(p);
                p += 1;
                if c == b'%' && p < self.pat.len() {
                    p += 1;
                }
                if self.p(p) == b']' {
                    break;
                }
            }
            return Ok(p + 1);
        }
        Ok(p)
    }

    /// `c` is in the set that starts at `p` (`[`) and whose `]` is at `ec`.
    fn in_set(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let mut sig = true;
        if self.p(p + 1) == b'^' {
            sig = false;
            p += 1;
        }
        p += 1;
        while p < ec {
            if self.p(p) == b'%' {
                p += 1;
                if class_matches(c, self.p(p)) {
                    return sig;
                }
            } else if self.p(p + 1) == b'-' && p + 2 < ec {
                if self.p(p) <= c && c <= self.p(p + 2) {
                    return sig;
                }
                p += 2;
            } else if self.p(p) == c {
                return sig;
            }
            p += 1;
        }
        !sig
    }

    /// The item at `p..ep` matches subject byte `c`.
    fn single(&self, c: u8, p: usize, ep: usize) -> bool {
        match self.p(p) {
            b'.' => true,
            b'%' => class_matches(c, self.p(p + 1)),
            b'[' => self.in_set(c, p, ep - 1),
            pc => pc == c,
        }
    }

    fn single_at(&self, s: usize, p: usize, ep: usize) -> bool {
        s < self.src.len() && self.single(self.src[s], p, ep)
    }

    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(PatternError::Bad("pattern too complex"));
        }
        let r = self.match_loop(s, p);
        self.depth -= 1;
        r
    }

    /// Lua's `match`, with its tail calls as a loop.
    fn match_loop(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, PatternError> {
        loop {
            self.tick()?;
            match self.p(p) {
                _ if p >= self.pat.len() => return Ok(Some(s)),
                b'(' => {
                    return if self.p(p + 1) == b')' {
                        self.start_capture(s, p + 2, POSITION)
                    } else {
                        self.start_capture(s, p + 1, UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'%' if self.p(p + 1) == b'b' => match self.balance(s, p + 2)? {
                    Some(e) => {
                        s = e;
                        p += 4;
                    }
                    None => return Ok(None),
                },
                b'%' if self.p(p + 1) == b'f' => {
                    p += 2;
                    if self.p(p) != b'[' {
                        return Err(PatternError::Bad("missing '[' after '%f' in pattern"));
                    }
                    let ep = self.class_end(p)?;
                    let prev = if s == 0 { 0 } else { self.s(s - 1) };
                    if self.in_set(prev, p, ep - 1) || !self.in_set(self.s(s), p, ep - 1) {
                        return Ok(None);
                    }
                    p = ep;
                }
                b'%' if self.p(p + 1).is_ascii_digit() => {
                    match self.match_back_reference(s, self.p(p + 1))? {
                        Some(e) => {
                            s = e;
                            p += 2;
                        }
                        None => return Ok(None),
                    }
                }
                b'$' if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                _ => {
                    let ep = self.class_end(p)?;
                    let m = self.single_at(s, p, ep);
                    match self.p(ep) {
                        b'?' => {
                            if m {
                                if let Some(r) = self.do_match(s + 1, ep + 1)? {
                                    return Ok(Some(r));
                                }
                            }
                            p = ep + 1;
                        }
                        b'*' => return self.max_expand(s, p, ep),
                        b'+' => {
                            return if m {
                                self.max_expand(s + 1, p, ep)
                            } else {
                                Ok(None)
                            }
                        }
                        b'-' => return self.min_expand(s, p, ep),
                        _ => {
                            if !m {
                                return Ok(None);
                            }
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        }
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, PatternError> {
        let mut i = 0;
        while self.single_at(s + i, p, ep) {
            self.tick()?;
            i += 1;
        }
        loop {
            if let Some(r) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(r));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(
        &mut self,
        mut s: usize,
        p: usize,
        ep: usize,
    ) -> Result<Option<usize>, PatternError> {
        loop {
            if let Some(r) = self.do_match(s, ep + 1)? {
                return Ok(Some(r));
            }
            if self.single_at(s, p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(
        &mut self,
        s: usize,
        p: usize,
        what: isize,
    ) -> Result<Option<usize>, PatternError> {
        if self.level >= MAX_CAPTURES {
            return Err(PatternError::Bad("too many captures"));
        }
        self.capture[self.level] = (s, what);
        self.level += 1;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.level -= 1;
        }
        Ok(r)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&l| self.capture[l].1 == UNFINISHED)
        else {
            return Err(PatternError::Bad("invalid pattern capture"));
        };
        self.capture[l].1 = (s - self.capture[l].0) as isize;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.capture[l].1 = UNFINISHED;
        }
        Ok(r)
    }

    /// `%b` with its two delimiters at `p`.
    fn balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if p + 1 >= self.pat.len() {
            return Err(PatternError::Bad("unbalanced pattern"));
        }
        let (open, close) = (self.p(p), self.p(p + 1));
        if s >= self.src.len() || self.src[s] != open {
            return Ok(None);
        }
        let mut depth = 1;
        for i in s + 1..self.src.len() {
            self.tick()?;
            let c = self.src[i];
            if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(i + 1));
                }
            } else if c == open {
                depth += 1;
            }
        }
        Ok(None)
    }

    /// `%1`–`%9` (`digit` is the ASCII digit): the text of that closed capture again.
    fn match_back_reference(&mut self, s: usize, digit: u8) -> Result<Option<usize>, PatternError> {
        let l = digit as isize - b'1' as isize;
        if l < 0 || l as usize >= self.level || self.capture[l as usize].1 == UNFINISHED {
            return Err(PatternError::Bad("invalid capture index"));
        }
        let (start, len) = self.capture[l as usize];
        // A position capture has no text: Lua compares its (negative) length as a huge size.
        if len < 0 {
            return Ok(None);
        }
        let len = len as usize;
        let text = &self.src[start..start + len];
        Ok(self
            .src
            .get(s..s + len)
            .filter(|t| *t == text)
            .map(|_| s + len))
    }

    /// Capture `i` of a match of `start..end` (capture 0 is the whole match when the pattern
    /// has none).
    pub fn capture(&self, i: usize, start: usize, end: usize) -> Result<Capture, PatternError> {
        if i >= self.level {
            return if i == 0 {
                Ok(Capture::Text(start, end))
            } else {
                Err(PatternError::Bad("invalid capture index"))
            };
        }
        let (init, len) = self.capture[i];
        match len {
            UNFINISHED => Err(PatternError::Bad("unfinished capture")),
            POSITION => Ok(Capture::Position(init + 1)),
            len => Ok(Capture::Text(init, init + len as usize)),
        }
    }

    /// Every capture of a match of `start..end` (the whole match when the pattern has none
    /// and `whole` is set, as for `match`/`gmatch`/`gsub` but not `find`).
    pub fn captures(
        &self,
        start: usize,
        end: usize,
        whole: bool,
    ) -> Result<Vec<Capture>, PatternError> {
        let n = if self.level == 0 && whole {
            1
        } else {
            self.level
        };
        (0..n).map(|i| self.capture(i, start, end)).collect()
    }
}

#[cfg(test)]
mod tests;
