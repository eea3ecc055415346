//! Sorted-set algebra: ZUNION/ZINTER/ZDIFF, their STORE forms, and ZINTERCARD, with WEIGHTS
//! and AGGREGATE SUM|MIN|MAX, checked in the order of Redis's `zunionInterDiffGenericCommand`.

use std::collections::HashMap;

use super::range::store_members;
use super::score_reply;
use crate::args::{int_arg, is, parse_int, parse_score};
use crate::cmd::CommandResult;
use crate::error::CommandError;
use crate::keyspace::{Keyspace, Ranked, Value};
use crate::order;
use crate::reply::Reply;

/// Which algebra.
#[derive(Clone, Copy, PartialEq)]
enum Op {
    Union,
    Inter,
    Diff,
}

/// How member scores from several inputs combine.
#[derive(Clone, Copy)]
enum Aggregate {
    Sum,
    Min,
    Max,
}

/// Where the result goes.
#[derive(Clone, Copy, PartialEq)]
enum Output {
    /// ZUNION/ZINTER/ZDIFF: the members (WITHSCORES allowed).
    Reply,
    /// The STORE forms: into `words[1]`.
    Store,
    /// ZINTERCARD: only how many (LIMIT allowed).
    Cardinality,
}

/// `ZUNIONSTORE dst numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX]`
pub(crate) fn zunionstore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    algebra(keyspace, words, Op::Union, Output::Store, "zunionstore")
}

/// `ZINTERSTORE dst numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX]`
pub(crate) fn zinterstore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    algebra(keyspace, words, Op::Inter, Output::Store, "zinterstore")
}

/// `ZDIFFSTORE dst numkeys key [key ...]`
pub(crate) fn zdiffstore(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    algebra(keyspace, words, Op::Diff, Output::Store, "zdiffstore")
}

/// `ZUNION numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES]`
pub(crate) fn zunion(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    algebra(keyspace, words, Op::Union, Output::Reply, "zunion")
}

/// `ZINTER numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES]`
pub(crate) fn zinter(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    algebra(keyspace, words, Op::Inter, Output::Reply, "zinter")
}

/// `ZDIFF numkeys key [key ...] [WITHSCORES]`
pub(crate) fn zdiff(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    algebra(keyspace, words, Op::Diff, Output::Reply, "zdiff")
}

/// `ZINTERCARD numkeys key [key ...] [LIMIT limit]` — the intersection's size, at most
/// `limit` (0: no limit).
pub(crate) fn zintercard(keyspace: &mut Keyspace, words: &[&[u8]]) -> CommandResult {
    algebra(
        keyspace,
        words,
        Op::Inter,
        Output::Cardinality,
        "zintercard",
    )
}

/// One input: its members with scores in rank order (none for a missing key), and its weight.
struct Input {
    members: Vec<Ranked>,
    weight: f64,
}

fn algebra(
    keyspace: &mut Keyspace,
    words: &[&[u8]],
    op: Op,
    output: Output,
    name: &'static str,
) -> CommandResult {
    let numkeys_at = if output == Output::Store { 2 } else { 1 };
    let numkeys = int_arg(words[numkeys_at])?;
    if numkeys < 1 {
        return Err(CommandError::AtLeastOneInputKey { command: name });
    }
    let available = words.len() - numkeys_at - 1;
    let numkeys = usize::try_from(numkeys).unwrap_or(usize::MAX);
    if numkeys > available {
        return Err(CommandError::Syntax);
    }
    let mut inputs = Vec::with_capacity(numkeys);
    for key in &words[numkeys_at + 1..numkeys_at + 1 + numkeys] {
        // A plain set takes part with every member scoring 1, as in Redis.
        let members = match keyspace.value(key) {
            None => Vec::new(),
            Some(Value::ZSet(set)) => set.iter().cloned().collect(),
            Some(Value::Set(set)) => set
                .members()
                .into_iter()
                .map(|member| Ranked { score: 1.0, member })
                .collect(),
            Some(_) => return Err(CommandError::WrongType),
        };
        inputs.push(Input {
            members,
            weight: 1.0,
        });
    }
    let mut aggregate = Aggregate::Sum;
    let mut with_scores = false;
    let mut limit: usize = 0;
    let mut at = numkeys_at + 1 + numkeys;
    let full = op != Op::Diff && output != Output::Cardinality;
    while at < words.len() {
        let remaining = words.len() - at;
        let word = words[at];
        if full && remaining > numkeys && is(word, "weights") {
            for (input, weight) in inputs.iter_mut().zip(&words[at + 1..]) {
                input.weight = parse_score(weight).ok_or(CommandError::WeightNotFloat)?;
            }
            at += 1 + numkeys;
        } else if full && remaining >= 2 && is(word, "aggregate") {
            let mode = words[at + 1];
            aggregate = if is(mode, "sum") {
                Aggregate::Sum
            } else if is(mode, "min") {
                Aggregate::Min
            } else if is(mode, "max") {
                Aggregate::Max
            } else {
                return Err(CommandError::Syntax);
            };
            at += 2;
        } else if output == Output::Reply && is(word, "withscores") {
            with_scores = true;
            at += 1;
        } else if output == Output::Cardinality && remaining >= 2 && is(word, "limit") {
            limit = match parse_int(words[at + 1]) {
                Some(n) if n >= 0 => usize::try_from(n).unwrap_or(usize::MAX),
                _ => return Err(CommandError::LimitNegative),
            };
            at += 2;
        } else {
            return Err(CommandError::Syntax);
        }
    }
    let mut result = combine(inputs, op, aggregate);
    match output {
        Output::Cardinality => {
            let count = if limit > 0 {
                result.len().min(limit)
            } else {
                result.len()
            };
            Ok(Reply::Integer(i64::try_from(count).unwrap_or(i64::MAX)))
        }
        Output::Store => Ok(store_members(keyspace, words[1], result)),
        Output::Reply => {
            // Scores are never NaN (`weighted` and `aggregate_into` map NaN to 0), so `Ranked`'s
            // order (score, then member) is total.
            order::sort_by(&mut result, Ord::cmp);
            let mut flat = Vec::with_capacity(result.len() * 2);
            for ranked in result {
                flat.push(Reply::Bulk(ranked.member));
                if with_scores {
                    flat.push(score_reply(ranked.score));
                }
            }
            Ok(Reply::Array(flat))
        }
    }
}

/// Orders the inputs smallest first, equal sizes in the order given (a stable sort), as Redis
/// walks them.
fn smallest_first(inputs: &mut [Input]) {
    order::sort_by(inputs, |a, b| a.members.len().cmp(&b.members.len()));
}

/// A weighted score; Redis turns NaN (`0 * inf`) into 0.
fn weighted(score: f64, weight: f64) -> f64 {
    let product = score * weight;
    if product.is_nan() {
        0.0
    } else {
        product
    }
}

fn aggregate_into(target: &mut f64, value: f64, aggregate: Aggregate) {
    match aggregate {
        Aggregate::Sum => {
            *target += value;
            // `inf + -inf`.
            if target.is_nan() {
                *target = 0.0;
            }
        }
        Aggregate::Min => {
            if value < *target {
                *target = value;
            }
        }
        Aggregate::Max => {
            if value > *target {
                *target = value;
            }
        }
    }
}

/// The members of the result with their scores, in no particular order. Inputs are taken
/// smallest first (as Redis sorts them), which decides the order scores are summed in.
fn combine(mut inputs: Vec<Input>, op: Op, aggregate: Aggregate) -> Vec<Ranked> {
    match op {
        Op::Diff => {
            let rest = inputs.split_off(1);
            let Some(first) = inputs.pop() else {
                return Vec::new();
            };
            let lookups: Vec<HashMap<&[u8], f64>> =
                rest.iter().map(|input| index(&input.members)).collect();
            first
                .members
                .into_iter()
                .filter(|r| {
                    !lookups
                        .iter()
                        .any(|lookup| lookup.contains_key(r.member.as_slice()))
                })
                .collect()
        }
        Op::Inter => {
            smallest_first(&mut inputs);
            if inputs.first().is_none_or(|input| input.members.is_empty()) {
                return Vec::new();
            }
            let lookups: Vec<HashMap<&[u8], f64>> = inputs[1..]
                .iter()
                .map(|input| index(&input.members))
                .collect();
            let first = &inputs[0];
            let mut result = Vec::new();
            'members: for ranked in &first.members {
                let mut score = weighted(ranked.score, first.weight);
                for (input, lookup) in inputs[1..].iter().zip(&lookups) {
                    let Some(&other) = lookup.get(ranked.member.as_slice()) else {
                        continue 'members;
                    };
                    aggregate_into(&mut score, weighted(other, input.weight), aggregate);
                }
                result.push(Ranked {
                    score,
                    member: ranked.member.clone(),
                });
            }
            result
        }
        Op::Union => {
            smallest_first(&mut inputs);
            let mut order: Vec<Vec<u8>> = Vec::new();
            let mut scores: HashMap<Vec<u8>, f64> = HashMap::new();
            for input in &inputs {
                for ranked in &input.members {
                    let score = weighted(ranked.score, input.weight);
                    match scores.get_mut(&ranked.member) {
                        Some(existing) => aggregate_into(existing, score, aggregate),
                        None => {
                            scores.insert(ranked.member.clone(), score);
                            order.push(ranked.member.clone());
                        }
                    }
                }
            }
            order
                .into_iter()
                .map(|member| Ranked {
                    score: scores.get(&member).copied().unwrap_or(0.0),
                    member,
                })
                .collect()
        }
    }
}

fn index(members: &[Ranked]) -> HashMap<&[u8], f64> {
    members
        .iter()
        .map(|r| (r.member.as_slice(), r.score))
        .collect()
}
