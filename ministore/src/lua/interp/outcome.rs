//! What running code hands back to its caller: how a block finished ([`Flow`]) and what a call
//! produced ([`CallResult`]). Statements (`exec`) and calls (`call`) both make and read these,
//! so they live below both.

use crate::lua::value::Value;

/// How a block finished.
pub(super) enum Flow {
    Normal,
    Break,
    Return(Vec<Value>),
    /// `return e` with one single-valued expression: no Vec for the commonest return.
    ReturnOne(Value),
}

/// What a call expression produced: one value (the `redis.call` fast path) or a list.
pub(super) enum CallResult {
    One(Value),
    Many(Vec<Value>),
}

impl CallResult {
    pub(super) fn first(self) -> Value {
        match self {
            CallResult::One(v) => v,
            CallResult::Many(values) => values.into_iter().next().unwrap_or_default(),
        }
    }

    pub(super) fn all(self) -> Vec<Value> {
        match self {
            CallResult::One(v) => vec![v],
            CallResult::Many(values) => values,
        }
    }
}
