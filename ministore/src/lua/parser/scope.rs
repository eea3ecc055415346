//! The names in scope while parsing, kept only to hold scripts to Lua 5.1's compile-time
//! limits: at most `MAX_LOCALS` locals in scope in one function, and at most `MAX_UPVALUES`
//! locals of enclosing functions used in one function. The interpreter resolves names itself.

use std::sync::Arc;

use super::{LimitKind, MAX_LOCALS, MAX_UPVALUES};

/// One function being parsed: its locals in scope, in declaration order (a for loop's hidden
/// ones under names no script can write), and the enclosing functions' locals it uses.
struct FunctionScope {
    /// Where Lua says the function is defined; `None` for the main chunk.
    line: Option<u32>,
    locals: Vec<Arc<str>>,
    /// Each as the function it belongs to (an index into `Scopes::functions`) and its slot.
    upvalues: Vec<(usize, usize)>,
}

/// The functions being parsed, innermost last.
pub(super) struct Scopes {
    functions: Vec<FunctionScope>,
}

/// A limit a declaration or a use went over: which, and in the function defined at which line
/// (`None` for the main chunk).
pub(super) struct OverLimit {
    pub kind: LimitKind,
    pub function_line: Option<u32>,
}

impl Scopes {
    /// The main chunk's scope, with no locals.
    pub fn new() -> Self {
        Scopes {
            functions: vec![FunctionScope {
                line: None,
                locals: Vec::new(),
                upvalues: Vec::new(),
            }],
        }
    }

    fn current(&self) -> &FunctionScope {
        &self.functions[self.functions.len() - 1]
    }

    fn current_mut(&mut self) -> &mut FunctionScope {
        let last = self.functions.len() - 1;
        &mut self.functions[last]
    }

    /// Enters a function Lua says is defined at `line`.
    pub fn open_function(&mut self, line: u32) {
        self.functions.push(FunctionScope {
            line: Some(line),
            locals: Vec::new(),
            upvalues: Vec::new(),
        });
    }

    /// Leaves the innermost function.
    pub fn close_function(&mut self) {
        if self.functions.len() > 1 {
            self.functions.pop();
        }
    }

    /// How many locals are in scope in the innermost function: a block's mark, to close it with.
    pub fn in_scope(&self) -> usize {
        self.current().locals.len()
    }

    /// Ends the locals declared since `mark` (a block's or a loop's end).
    pub fn close_block(&mut self, mark: usize) {
        self.current_mut().locals.truncate(mark);
    }

    /// Checks that declaring the `nth` (from 0) of one declaration's locals, after those in
    /// scope, keeps the innermost function within `MAX_LOCALS`.
    pub fn check_local(&self, nth: usize) -> Result<(), OverLimit> {
        if self.in_scope() + nth < MAX_LOCALS as usize {
            return Ok(());
        }
        Err(OverLimit {
            kind: LimitKind::Locals,
            function_line: self.current().line,
        })
    }

    /// The line the innermost function is defined on (`None` for the main chunk).
    pub fn function_line(&self) -> Option<u32> {
        self.current().line
    }

    /// Brings `names` into scope in the innermost function.
    pub fn declare<I: IntoIterator<Item = Arc<str>>>(&mut self, names: I) {
        self.current_mut().locals.extend(names);
    }

    /// Notes a use of `name`: a local of an enclosing function becomes an upvalue of each
    /// function between it and the use, outermost first, as Lua indexes them; a function that
    /// would then use more than `MAX_UPVALUES` is over the limit.
    pub fn use_name(&mut self, name: &str) -> Result<(), OverLimit> {
        let innermost = self.functions.len() - 1;
        let found = (0..=innermost).rev().find_map(|level| {
            let slot = self.functions[level]
                .locals
                .iter()
                .rposition(|local| &**local == name)?;
            Some((level, slot))
        });
        let Some((level, slot)) = found else {
            return Ok(()); // a global
        };
        for function in &mut self.functions[level + 1..] {
            if function.upvalues.contains(&(level, slot)) {
                continue;
            }
            if function.upvalues.len() >= MAX_UPVALUES as usize {
                return Err(OverLimit {
                    kind: LimitKind::Upvalues,
                    function_line: function.line,
                });
            }
            function.upvalues.push((level, slot));
        }
        Ok(())
    }
}
