//! What a yield leaves behind: the record each construct it unwinds through keeps of its partial
//! state ([`Saved`]), and the interpreter's coroutine bookkeeping ([`Control`]). How they are
//! made and replayed is `coroutine.rs`.

use std::rc::Rc;
use std::sync::Arc;

use super::fault::{bare_error, Fault};
use crate::lua::value::{Cell, Coroutine, TableRef, Value};

/// What one construct was doing when a yield unwound through it: enough to carry on from there
/// without evaluating anything twice.
#[derive(Debug)]
pub(super) enum Saved {
    /// A Lua function's activation: its variables and extra arguments.
    Body {
        locals: Vec<(Arc<str>, Cell)>,
        varargs: Vec<Value>,
    },
    /// A block: the statement that yielded, and where the block's variables start.
    Block {
        index: usize,
        mark: usize,
    },
    /// `if`: the arm whose condition yielded, or whose body did (`else` is arm `arms.len()`).
    If {
        arm: usize,
        in_body: bool,
    },
    /// `while`: in the body or in the condition.
    While {
        in_body: bool,
    },
    /// `repeat`: in the body (whose `Block` record follows), or in the condition, which sees
    /// the body's variables from `cond_mark` on.
    Repeat {
        cond_mark: Option<usize>,
    },
    /// A numeric `for`: the bounds evaluated so far, or the loop state once in the body.
    ForBounds(Vec<Value>),
    ForBody {
        i: f64,
        limit: f64,
        step: f64,
    },
    /// A generic `for`: in its expression list (`None`), or in the body with the iterator
    /// function, state and control value, its variables starting at `mark`.
    GenericFor(Option<(Value, Value, Value, usize)>),
    /// An expression list: the values of the expressions before the one that yielded.
    List(Vec<Value>),
    /// Two operands in order (a binary operator, `t[k]`, an assignment target's table and key):
    /// the first one's value once it is known.
    Pair(Option<Value>),
    /// `a = e` with one target: its table and key once evaluated (then `e` yielded).
    AssignOne(Option<Place>),
    /// `a, b = …`: the targets' table and key operands evaluated so far.
    AssignMany(Vec<Place>),
    /// A call: evaluating the function, its arguments, or the call itself.
    Call(CallAt),
    /// A method call `o:m(…)`: evaluating the object, its arguments (the object and the
    /// method found), or the call itself.
    MethodObject,
    MethodArgs {
        obj: Value,
        f: Value,
    },
    MethodCalling(Value),
    /// A table constructor: the table and positional items so far, the field that yielded and,
    /// for `[k] = v`, its key once evaluated.
    Table {
        table: TableRef,
        items: Vec<Value>,
        field: usize,
        key: Option<Value>,
    },
}

/// An assignment target's table and key (`None` for a variable).
pub(super) type Place = Option<(Value, Value)>;

/// How far a call had got.
#[derive(Debug)]
pub(super) enum CallAt {
    /// Evaluating the function expression.
    Func,
    /// Evaluating the arguments of the function found.
    Args(Value),
    /// Inside the call: the function called. When its record is the last one left to replay,
    /// this is the `yield` itself, and it returns what `resume` passed.
    Calling(Value),
}

/// One coroutine being run: which, and the interpreter's state when it was resumed.
pub(super) struct Active {
    pub(super) co: Rc<Coroutine>,
    /// [`Control::c_calls`] at the resume: a yield needs the count unchanged.
    pub(super) c_calls: u32,
    /// The call-stack length at the resume: error levels do not reach below it.
    pub(super) stack_base: usize,
}

/// The interpreter's coroutine state.
#[derive(Default)]
pub(super) struct Control {
    /// The coroutines being run, the running one last.
    pub(super) active: Vec<Active>,
    /// Calls into Lua made by library functions and metamethods now in progress.
    pub(super) c_calls: u32,
    /// The records a yield leaves while it unwinds, innermost first.
    pub(super) unwound: Vec<Saved>,
    /// The records a resume replays, popped outermost first.
    pub(super) replay: Vec<Saved>,
    /// The values on their way from `resume` to `yield` or back.
    pub(super) transfer: Vec<Value>,
}

/// The error for a replay that does not find the record it expects: a bug, reported as an
/// error rather than a panic.
pub(super) fn lost_track(line: u32) -> Fault {
    bare_error(
        line,
        "cannot resume coroutine: its saved state is inconsistent",
    )
}
