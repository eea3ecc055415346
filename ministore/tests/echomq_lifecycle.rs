//! An EchoMQ-style job lifecycle (dive R2.02.2 §4) run as real Lua scripts against the store:
//! `attempts` (HINCRBY'd by every claim) is the fence; complete and retry refuse a stale count
//! with EMQSTALE, and a reaper moves jobs whose lease lapsed back to the wait queue.

use ministore::{Reply, Store};

const WAIT: &str = "emq:{q}:wait";
const ACTIVE: &str = "emq:{q}:active";
const JOB_PREFIX: &str = "emq:{q}:job:";
const LEASE_MS: u64 = 30_000;

/// KEYS: wait, active, job-key prefix. ARGV: now, lease ms. Returns {id, payload, attempts}.
const CLAIM: &str = "local popped = redis.call('ZPOPMIN', KEYS[1])
if #popped == 0 then return false end
local id = popped[1]
local jk = KEYS[3] .. id
local att = redis.call('HINCRBY', jk, 'attempts', 1)
redis.call('HSET', jk, 'state', 'active')
redis.call('ZADD', KEYS[2], tonumber(ARGV[1]) + tonumber(ARGV[2]), id)
return {id, redis.call('HGET', jk, 'payload'), att}";

/// KEYS: active, job key. ARGV: id, attempts token. The fence of jobs.ex:139.
const COMPLETE: &str = "local att = redis.call('HGET', KEYS[2], 'attempts')
if not att then return 0 end
if att ~= ARGV[2] then
  return redis.error_reply('EMQSTALE complete token mismatch')
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'state', 'completed')
return 1";

/// KEYS: active, wait, job key. ARGV: id, attempts token, now. The fence of jobs.ex:173.
const RETRY: &str = "local att = redis.call('HGET', KEYS[3], 'attempts')
if not att then return 0 end
if att ~= ARGV[2] then
  return redis.error_reply('EMQSTALE retry token mismatch')
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], 'state', 'wait')
return 1";

/// KEYS: active, wait, job-key prefix. ARGV: now. Returns the ids moved back to wait.
const REAPER: &str = "local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZADD', KEYS[2], ARGV[1], id)
  redis.call('HSET', KEYS[3] .. id, 'state', 'wait')
end
return expired";

/// One job waiting in the queue, as a producer would leave it.
fn queue_with_job(id: &str, payload: &str) -> Store {
    let mut store = Store::new();
    let job = format!("{JOB_PREFIX}{id}");
    assert_eq!(
        store.exec(&["HSET", &job, "payload", payload, "state", "wait"]),
        Reply::Integer(2)
    );
    assert_eq!(store.exec(&["ZADD", WAIT, "0", id]), Reply::Integer(1));
    store
}

/// The scripts get "now" from the virtual clock as an argument, as EchoMQ passes it in.
fn now(store: &Store) -> String {
    store.now_ms().to_string()
}

fn claim(store: &mut Store) -> Reply {
    let args = [now(store), LEASE_MS.to_string()];
    store.eval(CLAIM, &[WAIT, ACTIVE, JOB_PREFIX], &args)
}

fn complete(store: &mut Store, id: &str, attempts: &str) -> Reply {
    store.eval(
        COMPLETE,
        &[ACTIVE, &format!("{JOB_PREFIX}{id}")],
        &[id, attempts],
    )
}

fn retry(store: &mut Store, id: &str, attempts: &str) -> Reply {
    let args = [id.to_string(), attempts.to_string(), now(store)];
    store.eval(RETRY, &[ACTIVE, WAIT, &format!("{JOB_PREFIX}{id}")], &args)
}

fn reap(store: &mut Store) -> Reply {
    let args = [now(store)];
    store.eval(REAPER, &[ACTIVE, WAIT, JOB_PREFIX], &args)
}

fn claimed(id: &str, payload: &str, attempts: i64) -> Reply {
    Reply::Array(vec![
        Reply::bulk(id),
        Reply::bulk(payload),
        Reply::Integer(attempts),
    ])
}

fn state_of(store: &mut Store, id: &str) -> Reply {
    store.exec(&["HGET", &format!("{JOB_PREFIX}{id}"), "state"])
}

/// W1 claims j1 (attempts 1), stalls past its lease, the reaper moves j1 back, W2 claims it
/// (attempts 2). Returns the store at the moment W1 resumes.
fn after_reap_and_reclaim() -> Store {
    let mut store = queue_with_job("j1", "send-invoice-42");
    store.advance(1_000);
    assert_eq!(
        claim(&mut store),
        claimed("j1", "send-invoice-42", 1),
        "W1 holds attempts 1"
    );
    assert_eq!(
        store.exec(&["ZSCORE", ACTIVE, "j1"]),
        Reply::bulk("31000"),
        "leased until now + 30 s"
    );

    store.advance(LEASE_MS);
    assert_eq!(
        reap(&mut store),
        Reply::Array(vec![Reply::bulk("j1")]),
        "the lapsed lease is reaped"
    );
    assert_eq!(state_of(&mut store, "j1"), Reply::bulk("wait"));
    assert_eq!(store.exec(&["ZCARD", ACTIVE]), Reply::Integer(0));

    store.advance(1_000);
    assert_eq!(
        claim(&mut store),
        claimed("j1", "send-invoice-42", 2),
        "W2 holds attempts 2"
    );
    store
}

#[test]
fn the_reaper_leaves_a_job_whose_lease_still_runs() {
    let mut store = queue_with_job("j1", "p");
    assert_eq!(claim(&mut store), claimed("j1", "p", 1));
    store.advance(LEASE_MS - 1);
    assert_eq!(reap(&mut store), Reply::Array(vec![]));
    assert_eq!(state_of(&mut store, "j1"), Reply::bulk("active"));
}

#[test]
fn w1_stale_complete_after_reap_and_reclaim_is_refused_with_emqstale() {
    let mut store = after_reap_and_reclaim();
    assert_eq!(
        complete(&mut store, "j1", "1"),
        Reply::Error("EMQSTALE complete token mismatch".to_string()),
        "W1's attempts 1 is below the stored 2"
    );
    assert_eq!(
        state_of(&mut store, "j1"),
        Reply::bulk("active"),
        "W2's claim stands"
    );
    assert_eq!(store.exec(&["ZCARD", ACTIVE]), Reply::Integer(1));
}

#[test]
fn w1_stale_retry_after_reap_and_reclaim_is_refused_with_emqstale() {
    let mut store = after_reap_and_reclaim();
    assert_eq!(
        retry(&mut store, "j1", "1"),
        Reply::Error("EMQSTALE retry token mismatch".to_string())
    );
    assert_eq!(
        store.exec(&["ZCARD", WAIT]),
        Reply::Integer(0),
        "the job was not pushed back"
    );
}

#[test]
fn w2_completes_with_the_current_attempts() {
    let mut store = after_reap_and_reclaim();
    assert!(complete(&mut store, "j1", "1").is_error());
    assert_eq!(complete(&mut store, "j1", "2"), Reply::Integer(1));
    assert_eq!(state_of(&mut store, "j1"), Reply::bulk("completed"));
    assert_eq!(store.exec(&["ZSCORE", ACTIVE, "j1"]), Reply::Nil);
    assert_eq!(
        store.exec(&["HGET", &format!("{JOB_PREFIX}j1"), "attempts"]),
        Reply::bulk("2")
    );
}

#[test]
fn a_retry_with_the_current_attempts_requeues_and_the_next_claim_bumps_the_fence() {
    let mut store = queue_with_job("j2", "resize");
    assert_eq!(claim(&mut store), claimed("j2", "resize", 1));
    store.advance(500);
    assert_eq!(retry(&mut store, "j2", "1"), Reply::Integer(1));
    assert_eq!(store.exec(&["ZSCORE", WAIT, "j2"]), Reply::bulk("500"));
    assert_eq!(claim(&mut store), claimed("j2", "resize", 2));
    assert!(
        complete(&mut store, "j2", "1").is_error(),
        "the pre-retry token is stale now"
    );
    assert_eq!(complete(&mut store, "j2", "2"), Reply::Integer(1));
}

#[test]
fn completing_an_unknown_job_returns_0() {
    let mut store = Store::new();
    assert_eq!(complete(&mut store, "nope", "1"), Reply::Integer(0));
}

#[test]
fn claiming_from_an_empty_queue_returns_nil() {
    let mut store = Store::new();
    assert_eq!(
        claim(&mut store),
        Reply::Nil,
        "Lua false becomes a nil reply"
    );
}

#[test]
fn a_script_error_from_redis_call_aborts_the_claim() {
    let mut store = Store::new();
    assert_eq!(store.exec(&["SET", WAIT, "not-a-zset"]), Reply::ok());
    match claim(&mut store) {
        Reply::Error(text) => assert!(
            text.starts_with("WRONGTYPE Operation against a key holding the wrong kind of value"),
            "{text}"
        ),
        other => panic!("expected WRONGTYPE, got {other:?}"),
    }
    assert_eq!(
        store.exec(&["EXISTS", ACTIVE]),
        Reply::Integer(0),
        "nothing after the failing call ran"
    );
}
