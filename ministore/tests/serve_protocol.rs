//! `ministore serve` at the byte level, each check run against it and against redis-server
//! 7.0 with the same body: protocol errors, pipelining and half-sent frames, RESP3 types, pub/sub
//! across connections (sharded too), CLIENT commands, QUIT/RESET, BUSY and SCRIPT KILL, clients that vanish
//! mid-command, many idle connections and concurrent writers.

// The `ministore` binary and `serve` are part of the `full` feature.
#![cfg(feature = "full")]

mod support;

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use support::{both_servers, multibulk, RawClient};

/// Sends `raw` on a fresh connection and returns everything the server sent before closing.
fn reply_then_close(port: u16, raw: &[u8]) -> String {
    let mut client = RawClient::connect(port);
    client.send_raw(raw);
    client.read_to_close()
}

#[test]
fn protocol_errors_reply_like_redis_and_close() {
    let cases: &[&[u8]] = &[
        b"*abc\r\n",
        b"*+1\r\n",
        b"*01\r\n$4\r\nPING\r\n",
        b"*3000000000\r\n",
        b"*2\r\nfoo\r\n",
        b"*1\r\n\r\n",
        b"*1\r\n$-1\r\n",
        b"*1\r\n$04\r\nPING\r\n",
        b"*1\r\n$600000000\r\n",
        b"*1\r\n$99999999999999999999\r\n",
        b"SET \"a b\r\n",
        b"PING\r\n*1\r\n$4\r\nPING\r\n*x\r\nPING\r\n",
    ];
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    for raw in cases {
        let ours = reply_then_close(ministore.port(), raw);
        let theirs = reply_then_close(redis.port(), raw);
        assert_eq!(ours, theirs, "for {:?}", String::from_utf8_lossy(raw));
        assert!(theirs.contains("-ERR Protocol error: "), "{theirs}");
    }
    let mut too_long = vec![b'x'; 70_000];
    too_long.extend_from_slice(b"\r\n");
    let mut count = b"*".to_vec();
    count.extend(vec![b'1'; 70_000]);
    let mut bulk_count = b"*1\r\n$".to_vec();
    bulk_count.extend(vec![b'1'; 70_000]);
    for raw in [too_long, count, bulk_count] {
        assert_eq!(
            reply_then_close(ministore.port(), &raw),
            reply_then_close(redis.port(), &raw)
        );
    }
}

#[test]
fn pipelines_inline_commands_and_half_sent_frames() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let mut client = RawClient::connect(server.port());
        let mut batch = Vec::new();
        for i in 0..300 {
            if i % 2 == 0 {
                batch.extend_from_slice(b"PING\r\n");
            } else {
                batch.extend_from_slice(&multibulk(&["ECHO", &i.to_string()]));
            }
        }
        batch.extend_from_slice(b"\r\n*0\r\nSET \"spaced key\" 'v 1'\r\nGET \"spaced key\"\r\n");
        client.send_raw(&batch);
        for i in 0..300 {
            let want = if i % 2 == 0 {
                "+PONG\r\n".to_string()
            } else {
                format!("${}\r\n{i}\r\n", i.to_string().len())
            };
            assert_eq!(client.read(), want, "{}", server.name());
        }
        assert_eq!(client.read(), "+OK\r\n");
        assert_eq!(client.read(), "$3\r\nv 1\r\n");
        // A frame sent a few bytes at a time is answered once it is whole.
        let frame = multibulk(&["ECHO", "in pieces"]);
        for piece in frame.chunks(3) {
            client.send_raw(piece);
            client.stream().flush().unwrap();
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(client.read(), "$9\r\nin pieces\r\n", "{}", server.name());
        // An inline line with a zero byte before its end waits for more: Redis looks for
        // the newline as C does, and the zero byte ends the search.
        let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
        stream
            .write_all(b"PING\r\nECHO a\x00b\r\nPING\r\n")
            .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(300)))
            .unwrap();
        let mut got = Vec::new();
        let mut chunk = [0u8; 256];
        while let Ok(n) = std::io::Read::read(&mut stream, &mut chunk) {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&chunk[..n]);
        }
        assert_eq!(got, b"+PONG\r\n", "{}", server.name());
    }
}

#[test]
fn resp3_replies_carry_redis_types() {
    let commands: &[&[&str]] = &[
        &["HSET", "h", "a", "1", "b", "2"],
        &["HGETALL", "h"],
        &["HGETALL", "missing"],
        &["ZADD", "z", "1.5", "m", "0.1", "n"],
        &["ZSCORE", "z", "n"],
        &["ZSCORE", "z", "none"],
        &["ZRANGE", "z", "0", "-1", "WITHSCORES"],
        &["ZRANGE", "z", "0", "-1"],
        &["ZINCRBY", "z", "1", "m"],
        &["ZPOPMIN", "z"],
        &["ZADD", "z", "1.5", "m", "0.1", "n"],
        &["ZPOPMIN", "z", "1"],
        &["GET", "missing"],
        &["EVAL", "return nil", "0"],
        &["EVAL", "return {1, 'two', {3}}", "0"],
        &["CLIENT", "GETNAME"],
        &["SCRIPT", "EXISTS", "abc"],
        &["HELLO", "4"],
        &["HELLO", "x"],
        &[
            "FUNCTION",
            "LOAD",
            "REPLACE",
            "#!lua name=shapes\nredis.register_function{function_name='ro', \
             callback=function() return 1 end, flags={'no-writes', 'allow-oom'}, \
             description='read only'}",
        ],
        &[
            "FUNCTION",
            "LOAD",
            "REPLACE",
            "#!lua name=plain\nredis.register_function('rw', function() return 2 end)",
        ],
        &["FUNCTION", "LIST", "LIBRARYNAME", "shapes"],
        &["FUNCTION", "LIST", "LIBRARYNAME", "plain", "WITHCODE"],
        &["FUNCTION", "STATS"],
    ];
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    for resp in ["2", "3"] {
        let mut ours = RawClient::connect(ministore.port());
        let mut theirs = RawClient::connect(redis.port());
        let hello_ours = ours.call(&["HELLO", resp]);
        let hello_theirs = theirs.call(&["HELLO", resp]);
        // Everything but the client id is the same.
        let without_id = |s: &str| s.split("$2\r\nid\r\n:").next().unwrap_or("").to_string();
        assert_eq!(without_id(&hello_ours), without_id(&hello_theirs));
        for words in commands {
            assert_eq!(ours.call(words), theirs.call(words), "RESP{resp} {words:?}");
        }
        ours.call(&["DEL", "h", "z"]);
        theirs.call(&["DEL", "h", "z"]);
        ours.call(&["FUNCTION", "FLUSH"]);
        theirs.call(&["FUNCTION", "FLUSH"]);
    }
}

#[test]
fn pubsub_reaches_subscribers_on_other_connections() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut resp2 = RawClient::connect(server.port());
        let mut resp3 = RawClient::connect(server.port());
        let mut publisher = RawClient::connect(server.port());
        resp3.call(&["HELLO", "3"]);
        resp2.send(&["SUBSCRIBE", "news", "alerts"]);
        assert_eq!(
            resp2.read(),
            "*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n"
        );
        assert_eq!(
            resp2.read(),
            "*3\r\n$9\r\nsubscribe\r\n$6\r\nalerts\r\n:2\r\n"
        );
        assert_eq!(
            resp3.call(&["PSUBSCRIBE", "n*"]),
            ">3\r\n$10\r\npsubscribe\r\n$2\r\nn*\r\n:1\r\n"
        );
        assert_eq!(resp2.call(&["GET", "x"]), "-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n", "{name}");
        // The context is named with the subcommand, and checked after the command's lookup
        // and its arguments' count.
        for (words, reply) in [
            (&["CLIENT", "ID"][..], "-ERR Can't execute 'client|id': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n"),
            (&["SCRIPT", "LOAD", "return 1"], "-ERR Can't execute 'script|load': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n"),
            (&["FOO", "a"], "-ERR unknown command 'FOO', with args beginning with: 'a' \r\n"),
            (&["GET"], "-ERR wrong number of arguments for 'get' command\r\n"),
            (&["SCRIPT", "BOGUS"], "-ERR unknown subcommand 'BOGUS'. Try SCRIPT HELP.\r\n"),
            (&["CLIENT", "BOGUS"], "-ERR unknown subcommand 'BOGUS'. Try CLIENT HELP.\r\n"),
            (&["CLIENT", "ID", "x"], "-ERR wrong number of arguments for 'client|id' command\r\n"),
            (&["PUBSUB", "NUMPAT", "x"], "-ERR wrong number of arguments for 'pubsub|numpat' command\r\n"),
            (&["AUTH"], "-ERR wrong number of arguments for 'auth' command\r\n"),
        ] {
            assert_eq!(resp2.call(words), reply, "{name}: {words:?}");
        }
        assert_eq!(resp2.call(&["PING"]), "*2\r\n$4\r\npong\r\n$0\r\n\r\n");
        assert_eq!(
            resp3.call(&["GET", "x"]),
            "_\r\n",
            "{name}: RESP3 may run commands"
        );
        assert_eq!(
            publisher.call(&["PUBLISH", "news", "hi"]),
            ":2\r\n",
            "{name}"
        );
        assert_eq!(
            resp2.read(),
            "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$2\r\nhi\r\n"
        );
        assert_eq!(
            resp3.read(),
            ">4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnews\r\n$2\r\nhi\r\n"
        );
        assert_eq!(
            publisher.call(&["PUBSUB", "NUMSUB", "news", "none"]),
            "*4\r\n$4\r\nnews\r\n:1\r\n$4\r\nnone\r\n:0\r\n"
        );
        assert_eq!(publisher.call(&["PUBSUB", "NUMPAT"]), ":1\r\n");
        resp2.send(&["UNSUBSCRIBE"]);
        let first = resp2.read();
        let second = resp2.read();
        assert!(
            first.ends_with(":1\r\n") && second.ends_with(":0\r\n"),
            "{first}{second}"
        );
        assert_eq!(
            resp2.call(&["UNSUBSCRIBE"]),
            "*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n"
        );
        assert_eq!(
            publisher.call(&["PUBLISH", "alerts", "x"]),
            ":0\r\n",
            "{name}"
        );
        assert_eq!(resp2.call(&["PING"]), "+PONG\r\n");
    }
}

#[test]
fn sharded_pubsub_is_a_namespace_of_its_own() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut sub = RawClient::connect(server.port());
        let mut resp3 = RawClient::connect(server.port());
        let mut publisher = RawClient::connect(server.port());
        resp3.call(&["HELLO", "3"]);
        // Shard channels are counted apart from channels and patterns.
        sub.send(&["SSUBSCRIBE", "s1", "s2"]);
        assert_eq!(
            sub.read(),
            "*3\r\n$10\r\nssubscribe\r\n$2\r\ns1\r\n:1\r\n",
            "{name}"
        );
        assert_eq!(
            sub.read(),
            "*3\r\n$10\r\nssubscribe\r\n$2\r\ns2\r\n:2\r\n",
            "{name}"
        );
        assert_eq!(
            sub.call(&["SUBSCRIBE", "s1"]),
            "*3\r\n$9\r\nsubscribe\r\n$2\r\ns1\r\n:1\r\n",
            "{name}"
        );
        assert_eq!(
            sub.call(&["PSUBSCRIBE", "s*"]),
            "*3\r\n$10\r\npsubscribe\r\n$2\r\ns*\r\n:2\r\n",
            "{name}"
        );
        assert_eq!(
            resp3.call(&["SSUBSCRIBE", "s2"]),
            ">3\r\n$10\r\nssubscribe\r\n$2\r\ns2\r\n:1\r\n",
            "{name}"
        );
        // PUBLISH reaches the channel and the pattern, SPUBLISH the shard channel alone.
        assert_eq!(publisher.call(&["PUBLISH", "s1", "x"]), ":2\r\n", "{name}");
        assert_eq!(
            sub.read(),
            "*3\r\n$7\r\nmessage\r\n$2\r\ns1\r\n$1\r\nx\r\n",
            "{name}"
        );
        assert_eq!(
            sub.read(),
            "*4\r\n$8\r\npmessage\r\n$2\r\ns*\r\n$2\r\ns1\r\n$1\r\nx\r\n",
            "{name}"
        );
        assert_eq!(publisher.call(&["SPUBLISH", "s1", "y"]), ":1\r\n", "{name}");
        assert_eq!(
            sub.read(),
            "*3\r\n$8\r\nsmessage\r\n$2\r\ns1\r\n$1\r\ny\r\n",
            "{name}"
        );
        assert_eq!(
            publisher.call(&["SPUBLISH", "nobody", "y"]),
            ":0\r\n",
            "{name}"
        );
        // From a script too, to a RESP3 listener as a push.
        assert_eq!(
            publisher.call(&[
                "EVAL",
                "return redis.call('SPUBLISH', KEYS[1], ARGV[1])",
                "1",
                "s2",
                "z"
            ]),
            ":2\r\n",
            "{name}"
        );
        assert_eq!(
            sub.read(),
            "*3\r\n$8\r\nsmessage\r\n$2\r\ns2\r\n$1\r\nz\r\n",
            "{name}"
        );
        assert_eq!(
            resp3.read(),
            ">3\r\n$8\r\nsmessage\r\n$2\r\ns2\r\n$1\r\nz\r\n",
            "{name}"
        );
        for (words, reply) in [
            (&["PUBSUB", "SHARDCHANNELS", "s1"][..], "*1\r\n$2\r\ns1\r\n"),
            (&["PUBSUB", "SHARDCHANNELS", "x*"], "*0\r\n"),
            (&["PUBSUB", "CHANNELS"], "*1\r\n$2\r\ns1\r\n"),
            (&["PUBSUB", "SHARDNUMSUB", "s2", "s1", "none"], "*6\r\n$2\r\ns2\r\n:2\r\n$2\r\ns1\r\n:1\r\n$4\r\nnone\r\n:0\r\n"),
            (&["PUBSUB", "NUMSUB", "s2"], "*2\r\n$2\r\ns2\r\n:0\r\n"),
            (&["PUBSUB", "SHARDNUMSUB"], "*0\r\n"),
            (&["PUBSUB", "SHARDCHANNELS", "a", "b"], "-ERR unknown subcommand or wrong number of arguments for 'SHARDCHANNELS'. Try PUBSUB HELP.\r\n"),
            (&["SPUBLISH", "a"], "-ERR wrong number of arguments for 'spublish' command\r\n"),
            (&["SSUBSCRIBE"], "-ERR wrong number of arguments for 'ssubscribe' command\r\n"),
            (&["EVAL", "return redis.call('SSUBSCRIBE', 'a')", "0"], "-ERR This Redis command is not allowed from script script: 895425a71f3f0874dd7c9a247d7a626a32fda8b7, on @user_script:1.\r\n"),
        ] {
            assert_eq!(publisher.call(words), reply, "{name}: {words:?}");
        }
        let info = resp3.call(&["CLIENT", "INFO"]);
        assert!(
            info.contains(" flags=P ") && info.contains(" sub=0 psub=0 ssub=1 "),
            "{name}: {info}"
        );
        // Dropping the channel and the pattern leaves the shard channels: still subscribed.
        assert_eq!(
            sub.call(&["PUNSUBSCRIBE"]),
            "*3\r\n$12\r\npunsubscribe\r\n$2\r\ns*\r\n:1\r\n",
            "{name}"
        );
        assert_eq!(
            sub.call(&["UNSUBSCRIBE", "s1"]),
            "*3\r\n$11\r\nunsubscribe\r\n$2\r\ns1\r\n:0\r\n",
            "{name}"
        );
        assert_eq!(sub.call(&["GET", "x"]), "-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n", "{name}");
        sub.send(&["SUNSUBSCRIBE", "s1", "none"]);
        assert_eq!(
            sub.read(),
            "*3\r\n$12\r\nsunsubscribe\r\n$2\r\ns1\r\n:1\r\n",
            "{name}"
        );
        assert_eq!(
            sub.read(),
            "*3\r\n$12\r\nsunsubscribe\r\n$4\r\nnone\r\n:1\r\n",
            "{name}"
        );
        assert_eq!(
            sub.call(&["SUNSUBSCRIBE"]),
            "*3\r\n$12\r\nsunsubscribe\r\n$2\r\ns2\r\n:0\r\n",
            "{name}"
        );
        assert_eq!(
            sub.call(&["SUNSUBSCRIBE"]),
            "*3\r\n$12\r\nsunsubscribe\r\n$-1\r\n:0\r\n",
            "{name}"
        );
        assert_eq!(sub.call(&["PING"]), "+PONG\r\n", "{name}");
        // RESET drops shard channels as it drops the others.
        assert_eq!(resp3.call(&["RESET"]), "+RESET\r\n", "{name}");
        assert_eq!(
            publisher.call(&["PUBSUB", "SHARDNUMSUB", "s2"]),
            "*2\r\n$2\r\ns2\r\n:0\r\n",
            "{name}"
        );
        assert_eq!(
            publisher.call(&["SPUBLISH", "s2", "gone"]),
            ":0\r\n",
            "{name}"
        );
    }
}

#[test]
fn a_message_published_after_the_confirmation_was_read_arrives() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut sub = RawClient::connect(server.port());
        let mut publisher = RawClient::connect(server.port());
        for round in 0..300 {
            let channel = format!("c{round}");
            let (subscribe, publish, unsubscribe) = match round % 3 {
                0 => ("SUBSCRIBE", "PUBLISH", "UNSUBSCRIBE"),
                1 => ("PSUBSCRIBE", "PUBLISH", "PUNSUBSCRIBE"),
                _ => ("SSUBSCRIBE", "SPUBLISH", "SUNSUBSCRIBE"),
            };
            sub.call(&[subscribe, &channel]);
            assert_eq!(
                publisher.call(&[publish, &channel, "m"]),
                ":1\r\n",
                "{name}: {subscribe} {channel}"
            );
            assert!(sub.read().ends_with("$1\r\nm\r\n"), "{name}: {channel}");
            sub.call(&[unsubscribe, &channel]);
        }
    }
}

#[test]
fn client_commands_quit_and_reset() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut me = RawClient::connect(server.port());
        let mut other = RawClient::connect(server.port());
        assert_eq!(me.call(&["CLIENT", "GETNAME"]), "$-1\r\n");
        assert_eq!(
            me.call(&["CLIENT", "SETNAME", "a b"]),
            "-ERR Client names cannot contain spaces, newlines or special characters.\r\n"
        );
        assert_eq!(me.call(&["CLIENT", "SETNAME", "worker-1"]), "+OK\r\n");
        assert_eq!(me.call(&["CLIENT", "GETNAME"]), "$8\r\nworker-1\r\n");
        let id_line = other.call(&["CLIENT", "ID"]);
        let other_id = id_line.trim_start_matches(':').trim_end().to_string();
        let list = me.call(&["CLIENT", "LIST"]);
        assert!(list.contains("name=worker-1 "), "{name}: {list}");
        assert!(list.contains(&format!("id={other_id} ")), "{name}: {list}");
        let info = me.call(&["CLIENT", "INFO"]);
        assert!(info.contains("cmd=client|info"), "{name}: {info}");
        assert_eq!(
            me.call(&["CLIENT", "KILL", "ID", "999999"]),
            ":0\r\n",
            "{name}"
        );
        assert_eq!(me.call(&["CLIENT", "KILL", "ID", &other_id]), ":1\r\n");
        assert_eq!(
            other.read_to_close(),
            "",
            "{name}: a killed client is closed"
        );
        assert_eq!(
            me.call(&["CLIENT", "KILL", "1.2.3.4:5"]),
            "-ERR No such client\r\n"
        );
        assert_eq!(
            me.call(&["CLIENT", "NOPE"]),
            "-ERR unknown subcommand 'NOPE'. Try CLIENT HELP.\r\n"
        );
        me.call(&["HELLO", "3"]);
        assert_eq!(me.call(&["RESET"]), "+RESET\r\n");
        assert_eq!(
            me.call(&["CLIENT", "GETNAME"]),
            "$-1\r\n",
            "{name}: RESET drops the name and RESP3"
        );
        me.send_raw(b"QUIT\r\nPING\r\n");
        assert_eq!(me.read_to_close(), "+OK\r\n", "{name}");
    }
}

#[test]
fn a_long_script_makes_others_busy_until_script_kill() {
    let Some(servers) = both_servers(200) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut runner = RawClient::connect(server.port());
        let mut other = RawClient::connect(server.port());
        assert_eq!(
            other.call(&["SCRIPT", "KILL"]),
            "-NOTBUSY No scripts in execution right now.\r\n"
        );
        assert_eq!(other.call(&["WATCH", "k"]), "+OK\r\n");
        assert_eq!(other.call(&["MULTI"]), "+OK\r\n");
        runner.send(&["EVAL", "local i = 0 while true do i = i + 1 end", "0"]);
        std::thread::sleep(Duration::from_millis(50));
        let busy = "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
        // Inside MULTI a command is refused, and EXEC discards the block.
        assert_eq!(other.call(&["GET", "k"]), busy, "{name}");
        assert_eq!(
            other.call(&["EXEC"]),
            format!(
                "-EXECABORT Transaction discarded because of: {}",
                &busy[1..]
            ),
            "{name}"
        );
        assert_eq!(other.call(&["GET", "k"]), busy, "{name}");
        assert_eq!(other.call(&["FUNCTION", "KILL"]), busy, "{name}");
        // The connection's own commands wait like the rest, after Redis's own checks; EXEC
        // outside MULTI is refused as an aborted block; a SHUTDOWN that would save is refused.
        assert_eq!(other.call(&["CLIENT", "ID"]), busy, "{name}");
        assert_eq!(other.call(&["SUBSCRIBE", "c"]), busy, "{name}");
        assert_eq!(other.call(&["FUNCTION", "STATS"]), busy, "{name}");
        assert_eq!(
            other.call(&["CLIENT", "BOGUS"]),
            "-ERR unknown subcommand 'BOGUS'. Try CLIENT HELP.\r\n",
            "{name}"
        );
        assert_eq!(
            other.call(&["GET"]),
            "-ERR wrong number of arguments for 'get' command\r\n",
            "{name}"
        );
        assert_eq!(
            other.call(&["EXEC"]),
            format!(
                "-EXECABORT Transaction discarded because of: {}",
                &busy[1..]
            ),
            "{name}"
        );
        assert_eq!(other.call(&["SHUTDOWN"]), busy, "{name}");
        // RESET is answered while the script runs, and the connection goes on.
        assert_eq!(other.call(&["RESET"]), "+RESET\r\n", "{name}");
        assert_eq!(other.call(&["SCRIPT", "KILL"]), "+OK\r\n", "{name}");
        let killed = runner.read();
        assert!(
            killed.starts_with("-ERR Script killed by user with SCRIPT KILL... script: ")
                && killed.ends_with(", on @user_script:1.\r\n"),
            "{name}: {killed}"
        );
        assert_eq!(other.call(&["PING"]), "+PONG\r\n");
        // A script that wrote cannot be killed: only SHUTDOWN NOSAVE ends it.
        runner.send(&["EVAL", "redis.call('SET', 'k', 'v') while true do end", "0"]);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(other.call(&["SCRIPT", "KILL"]), "-UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.\r\n", "{name}");
        assert_eq!(other.call(&["GET", "k"]), busy, "{name}");
        other.send(&["SHUTDOWN", "NOSAVE"]);
        assert_eq!(other.read_to_close(), "", "{name}");
        assert_eq!(runner.read_to_close(), "", "{name}");
    }
}

#[test]
fn vanishing_and_idle_clients_do_not_hurt_the_others() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut keeper = RawClient::connect(server.port());
        assert_eq!(keeper.call(&["SET", "kept", "safe"]), "+OK\r\n");
        // Clients that hang up mid-frame, mid-bulk, or right after a whole command.
        for raw in [
            &b"*3\r\n$3\r\nSET\r\n$4\r\nkept"[..],
            b"*2\r\n$3\r\nGET",
            b"*1\r\n$100000\r\nabc",
            b"SET kept gone\r\n*1\r\n",
        ] {
            let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
            stream.write_all(raw).unwrap();
            drop(stream);
        }
        // Many idle connections at once.
        let idle: Vec<TcpStream> = (0..1000)
            .map(|_| TcpStream::connect(("127.0.0.1", server.port())).unwrap())
            .collect();
        let mut late = RawClient::connect(server.port());
        assert_eq!(late.call(&["PING"]), "+PONG\r\n", "{name}");
        drop(idle);
        std::thread::sleep(Duration::from_millis(50));
        let kept = keeper.call(&["GET", "kept"]);
        assert!(
            kept == "$4\r\nsafe\r\n" || kept == "$4\r\ngone\r\n",
            "{name}: {kept}"
        );
        assert_eq!(keeper.call(&["SET", "kept", "safe"]), "+OK\r\n");
    }
}

#[test]
fn concurrent_writers_lose_nothing() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let port = server.port();
        let workers: Vec<_> = (0..8)
            .map(|_| {
                std::thread::spawn(move || {
                    let mut client = RawClient::connect(port);
                    let mut batch = Vec::new();
                    for _ in 0..250 {
                        batch.extend_from_slice(&multibulk(&["INCR", "counter"]));
                    }
                    client.send_raw(&batch);
                    for _ in 0..250 {
                        assert!(client.read().starts_with(':'));
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().expect("a writer failed");
        }
        let mut client = RawClient::connect(port);
        assert_eq!(
            client.call(&["GET", "counter"]),
            "$4\r\n2000\r\n",
            "{}",
            server.name()
        );
    }
}

#[test]
fn each_connection_has_its_own_database_multi_and_watch() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut alice = RawClient::connect(server.port());
        let mut bob = RawClient::connect(server.port());
        assert_eq!(alice.call(&["SELECT", "1"]), "+OK\r\n");
        assert_eq!(alice.call(&["SET", "x", "in-db-1"]), "+OK\r\n");
        assert_eq!(
            bob.call(&["GET", "x"]),
            "$-1\r\n",
            "{name}: bob is still in db 0"
        );
        assert!(alice.call(&["CLIENT", "INFO"]).contains(" db=1 "), "{name}");
        // WATCH: another client's write aborts the transaction (nil array).
        assert_eq!(alice.call(&["WATCH", "x"]), "+OK\r\n");
        assert_eq!(alice.call(&["MULTI"]), "+OK\r\n");
        assert_eq!(alice.call(&["SET", "x", "alice"]), "+QUEUED\r\n");
        assert_eq!(
            bob.call(&["SELECT", "1"]),
            "+OK\r\n",
            "{name}: bob is not queued"
        );
        assert_eq!(bob.call(&["SET", "x", "bob"]), "+OK\r\n");
        assert_eq!(alice.call(&["EXEC"]), "*-1\r\n", "{name}");
        assert_eq!(alice.call(&["GET", "x"]), "$3\r\nbob\r\n");
        // Without interference it commits, each reply shaped by its command (RESP3 here).
        alice.call(&["HELLO", "3"]);
        assert_eq!(alice.call(&["WATCH", "x"]), "+OK\r\n");
        assert_eq!(alice.call(&["MULTI"]), "+OK\r\n");
        assert_eq!(alice.call(&["ZADD", "z", "0.5", "m"]), "+QUEUED\r\n");
        assert_eq!(alice.call(&["ZSCORE", "z", "m"]), "+QUEUED\r\n");
        assert_eq!(alice.call(&["HSET", "h", "f", "v"]), "+QUEUED\r\n");
        assert_eq!(alice.call(&["HGETALL", "h"]), "+QUEUED\r\n");
        assert_eq!(
            alice.call(&["EXEC"]),
            "*4\r\n:1\r\n,0.5\r\n:1\r\n%1\r\n$1\r\nf\r\n$1\r\nv\r\n",
            "{name}"
        );
        assert_eq!(alice.call(&["RESET"]), "+RESET\r\n");
        assert_eq!(
            alice.call(&["GET", "x"]),
            "$-1\r\n",
            "{name}: RESET selects db 0"
        );
    }
}

#[test]
fn blocking_pops_wait_for_a_push_or_their_timeout() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut waiter = RawClient::connect(server.port());
        let mut pusher = RawClient::connect(server.port());
        let started = std::time::Instant::now();
        assert_eq!(
            waiter.call(&["BZPOPMIN", "nothing", "0.2"]),
            "*-1\r\n",
            "{name}"
        );
        assert!(
            started.elapsed() >= Duration::from_millis(190),
            "{name}: waited out the timeout"
        );
        waiter.send(&["BZPOPMIN", "queue", "5"]);
        std::thread::sleep(Duration::from_millis(150));
        assert!(
            pusher.call(&["CLIENT", "LIST"]).contains("cmd=bzpopmin"),
            "{name}"
        );
        assert_eq!(pusher.call(&["ZADD", "queue", "1", "job"]), ":1\r\n");
        assert_eq!(
            waiter.read(),
            "*3\r\n$5\r\nqueue\r\n$3\r\njob\r\n$1\r\n1\r\n",
            "{name}: woken by the push"
        );
        // A waiter killed by another client goes away; the others carry on.
        waiter.send(&["BZPOPMIN", "queue", "0"]);
        std::thread::sleep(Duration::from_millis(100));
        let list = pusher.call(&["CLIENT", "LIST"]);
        let id = list
            .lines()
            .find(|line| line.contains("cmd=bzpopmin"))
            .and_then(|line| line.split_whitespace().find_map(|f| f.strip_prefix("id=")))
            .map(str::to_string)
            .expect("the waiter in CLIENT LIST");
        assert_eq!(pusher.call(&["CLIENT", "KILL", "ID", &id]), ":1\r\n");
        assert_eq!(waiter.read_to_close(), "", "{name}");
        assert_eq!(pusher.call(&["ZADD", "queue", "2", "later"]), ":1\r\n");
        assert_eq!(
            pusher.call(&["ZCARD", "queue"]),
            ":1\r\n",
            "{name}: nobody took it"
        );
    }
}

#[test]
fn a_long_function_is_stopped_by_function_kill() {
    let library =
        "#!lua name=spin\nredis.register_function('spin', function() while true do end end)";
    let mut killed = Vec::new();
    let Some(servers) = both_servers(200) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut runner = RawClient::connect(server.port());
        let mut other = RawClient::connect(server.port());
        assert_eq!(
            runner.call(&["FUNCTION", "LOAD", library]),
            "$4\r\nspin\r\n",
            "{name}"
        );
        // Called in another case: FUNCTION STATS names it as registered.
        runner.send(&["FCALL", "SPIN", "0"]);
        std::thread::sleep(Duration::from_millis(300));
        let busy = "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.\r\n";
        assert_eq!(other.call(&["PING"]), busy, "{name}");
        assert_eq!(other.call(&["SCRIPT", "KILL"]), busy, "{name}");
        // FUNCTION STATS describes the running function; its duration is the one part that
        // differs from run to run.
        let stats = other.call(&["FUNCTION", "STATS"]);
        let (head, tail) = stats.split_once("duration_ms\r\n:").expect("a duration");
        let (ms, tail) = tail.split_once("\r\n").expect("a number");
        assert!(
            ms.parse::<u64>().is_ok_and(|ms| ms >= 200),
            "{name}: {stats}"
        );
        assert_eq!(
            head,
            "*4\r\n$14\r\nrunning_script\r\n*6\r\n$4\r\nname\r\n$4\r\nspin\r\n$7\r\ncommand\r\n*3\r\n$5\r\nFCALL\r\n$4\r\nSPIN\r\n$1\r\n0\r\n$11\r\n",
            "{name}"
        );
        assert_eq!(
            tail,
            "$7\r\nengines\r\n*2\r\n$3\r\nLUA\r\n*4\r\n$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:1\r\n",
            "{name}"
        );
        assert_eq!(other.call(&["FUNCTION", "KILL"]), "+OK\r\n", "{name}");
        killed.push(runner.read());
        assert_eq!(other.call(&["PING"]), "+PONG\r\n", "{name}");
    }
    assert_eq!(killed[0], killed[1]);
}

#[test]
fn the_real_clock_reads_the_machines_unix_time() {
    let server = support::MinistoreServer::start(&[]);
    let mut client = RawClient::connect(server.port);
    let unix_s = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    };
    let before = unix_s();
    let time = client.call(&["TIME"]);
    let after = unix_s();
    let seconds: u64 = time
        .split("\r\n")
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("TIME's first element: {time:?}"));
    assert!(
        (before..=after).contains(&seconds),
        "{before} ≤ {seconds} ≤ {after}"
    );
    // Deadlines given in Unix time count from now, as on Redis: one a minute away leaves a
    // minute; one already past deletes the key.
    let in_a_minute = (after + 60).to_string();
    assert_eq!(
        client.call(&["SET", "k", "v", "EXAT", &in_a_minute]),
        "+OK\r\n"
    );
    let ttl = client.call(&["TTL", "k"]);
    assert!(
        matches!(ttl.as_str(), ":58\r\n" | ":59\r\n" | ":60\r\n"),
        "TTL of a key set to expire a minute from now: {ttl:?}"
    );
    assert_eq!(client.call(&["SET", "k2", "v"]), "+OK\r\n");
    let ago = (before - 10).to_string();
    assert_eq!(client.call(&["EXPIREAT", "k2", &ago]), ":1\r\n");
    assert_eq!(client.call(&["EXISTS", "k2"]), ":0\r\n");
}

#[test]
fn the_virtual_clock_moves_only_with_debug_sleep() {
    let server = support::MinistoreServer::start(&["--clock", "virtual"]);
    let mut client = RawClient::connect(server.port);
    assert_eq!(client.call(&["SET", "lease", "a", "PX", "100"]), "+OK\r\n");
    std::thread::sleep(Duration::from_millis(250));
    assert_eq!(
        client.call(&["GET", "lease"]),
        "$1\r\na\r\n",
        "wall time does not count"
    );
    let started = std::time::Instant::now();
    assert_eq!(client.call(&["DEBUG", "SLEEP", "0.101"]), "+OK\r\n");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "DEBUG SLEEP is instant"
    );
    assert_eq!(client.call(&["GET", "lease"]), "$-1\r\n");
}

#[test]
fn blocking_list_commands_wait_across_connections() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut waiter = RawClient::connect(server.port());
        let mut pusher = RawClient::connect(server.port());
        assert_eq!(
            waiter.call(&["BLPOP", "l", "-1"]),
            "-ERR timeout is negative\r\n",
            "{name}"
        );
        assert_eq!(
            waiter.call(&["BLPOP", "l", "x"]),
            "-ERR timeout is not a float or out of range\r\n",
            "{name}"
        );
        let started = std::time::Instant::now();
        assert_eq!(waiter.call(&["BRPOP", "l", "0.2"]), "*-1\r\n", "{name}");
        assert!(started.elapsed() >= Duration::from_millis(190), "{name}");
        assert_eq!(
            waiter.call(&["BLMOVE", "l", "m", "LEFT", "RIGHT", "0.1"]),
            "*-1\r\n",
            "{name}"
        );
        waiter.send(&["BLPOP", "a", "l", "0"]);
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(pusher.call(&["RPUSH", "l", "x", "y"]), ":2\r\n");
        assert_eq!(waiter.read(), "*2\r\n$1\r\nl\r\n$1\r\nx\r\n", "{name}");
        waiter.send(&["BLMOVE", "empty", "dest", "LEFT", "RIGHT", "5"]);
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(pusher.call(&["LPUSH", "empty", "moved"]), ":1\r\n");
        assert_eq!(waiter.read(), "$5\r\nmoved\r\n", "{name}");
        assert_eq!(
            pusher.call(&["LRANGE", "dest", "0", "-1"]),
            "*1\r\n$5\r\nmoved\r\n"
        );
        // Inside MULTI nothing waits.
        assert_eq!(waiter.call(&["MULTI"]), "+OK\r\n");
        assert_eq!(waiter.call(&["BLPOP", "none", "0"]), "+QUEUED\r\n");
        assert_eq!(waiter.call(&["EXEC"]), "*1\r\n*-1\r\n", "{name}");
    }
}

/// Sends `command` from a new connection and leaves it waiting (100 ms, so that waiters queue
/// in the order they were sent).
fn waiting(port: u16, command: &[&str]) -> RawClient {
    let mut client = RawClient::connect(port);
    client.send(command);
    std::thread::sleep(Duration::from_millis(100));
    client
}

#[test]
fn waiters_are_served_key_by_key_in_the_order_the_keys_were_readied() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let port = server.port();
        let mut pusher = RawClient::connect(port);
        // A BLMOVE's push readies its destination after the key it took from: the oldest
        // waiter on the destination gets the element.
        let mut w1 = waiting(port, &["BLPOP", "b", "1"]);
        let mut w2 = waiting(port, &["BLMOVE", "a", "b", "RIGHT", "LEFT", "1"]);
        let mut w3 = waiting(port, &["BLPOP", "b", "1"]);
        assert_eq!(pusher.call(&["RPUSH", "a", "x"]), ":1\r\n");
        assert_eq!(w2.read(), "$1\r\nx\r\n", "{name}");
        assert_eq!(w1.read(), "*2\r\n$1\r\nb\r\n$1\r\nx\r\n", "{name}");
        assert_eq!(w3.read(), "*-1\r\n", "{name}");
        // Two keys fed by one transaction are served in the order they were fed.
        let mut w1 = waiting(port, &["BLPOP", "k2", "1"]);
        let mut w2 = waiting(port, &["BLMOVE", "k1", "k2", "LEFT", "LEFT", "1"]);
        pusher.send_raw(
            &[
                multibulk(&["MULTI"]),
                multibulk(&["RPUSH", "k1", "x"]),
                multibulk(&["RPUSH", "k2", "y"]),
                multibulk(&["EXEC"]),
            ]
            .concat(),
        );
        for reply in [
            "+OK\r\n",
            "+QUEUED\r\n",
            "+QUEUED\r\n",
            "*2\r\n:1\r\n:1\r\n",
        ] {
            assert_eq!(pusher.read(), reply, "{name}");
        }
        assert_eq!(w2.read(), "$1\r\nx\r\n", "{name}");
        assert_eq!(w1.read(), "*2\r\n$2\r\nk2\r\n$1\r\nx\r\n", "{name}");
        assert_eq!(
            pusher.call(&["LRANGE", "k2", "0", "-1"]),
            "*1\r\n$1\r\ny\r\n",
            "{name}"
        );
        // A waiter on two keys is served from the one fed first, not the first it names.
        let mut w = waiting(
            port,
            &["BLMPOP", "1", "2", "x1", "x2", "LEFT", "COUNT", "5"],
        );
        assert_eq!(
            pusher.call(&[
                "EVAL",
                "redis.call('rpush', 'x2', 'a', 'b') redis.call('rpush', 'x1', 'c')",
                "0"
            ]),
            "$-1\r\n",
            "{name}"
        );
        assert_eq!(
            w.read(),
            "*2\r\n$2\r\nx2\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n",
            "{name}"
        );
        // A waiter on two keys whose first became a string is served from the second.
        let mut w = waiting(port, &["BLPOP", "s", "l", "1"]);
        assert_eq!(pusher.call(&["SET", "s", "x"]), "+OK\r\n");
        assert_eq!(pusher.call(&["RPUSH", "l", "v"]), ":1\r\n");
        assert_eq!(w.read(), "*2\r\n$1\r\nl\r\n$1\r\nv\r\n", "{name}");
        let mut w = waiting(port, &["BZPOPMIN", "s2", "z", "1"]);
        assert_eq!(pusher.call(&["SET", "s2", "x"]), "+OK\r\n");
        assert_eq!(pusher.call(&["ZADD", "z", "1", "m"]), ":1\r\n");
        assert_eq!(
            w.read(),
            "*3\r\n$1\r\nz\r\n$1\r\nm\r\n$1\r\n1\r\n",
            "{name}"
        );
        // A list or sorted set written over a string readies nothing: the waiter sleeps on.
        assert_eq!(pusher.call(&["DEL", "s"]), ":1\r\n");
        let mut w = waiting(port, &["BLPOP", "s", "1"]);
        assert_eq!(pusher.call(&["SET", "s", "x"]), "+OK\r\n");
        assert_eq!(pusher.call(&["RPUSH", "src", "3", "1", "2"]), ":3\r\n");
        assert_eq!(pusher.call(&["SORT", "src", "STORE", "s"]), ":3\r\n");
        assert_eq!(pusher.call(&["RPUSH", "s", "4"]), ":4\r\n");
        assert_eq!(w.read(), "*-1\r\n", "{name}");
        let mut w = waiting(port, &["BZPOPMIN", "t", "1"]);
        assert_eq!(pusher.call(&["SET", "t", "x"]), "+OK\r\n");
        assert_eq!(pusher.call(&["ZADD", "zs", "1", "a"]), ":1\r\n");
        assert_eq!(pusher.call(&["ZUNIONSTORE", "t", "1", "zs"]), ":1\r\n");
        assert_eq!(w.read(), "*-1\r\n", "{name}");
        assert_eq!(pusher.call(&["ZCARD", "t"]), ":1\r\n", "{name}");
        // RENAME and COPY … REPLACE delete the key they replace and add it anew: its waiters
        // are served, whatever it held.
        for replace in [
            &["RENAME", "src", "dst"][..],
            &["COPY", "src", "dst", "REPLACE"],
        ] {
            let mut w = waiting(port, &["BLPOP", "dst", "1"]);
            assert_eq!(pusher.call(&["SET", "dst", "x"]), "+OK\r\n");
            pusher.call(&["DEL", "src"]);
            assert_eq!(pusher.call(&["RPUSH", "src", "a"]), ":1\r\n");
            assert!(pusher.call(replace).starts_with(['+', ':']), "{name}");
            assert_eq!(
                w.read(),
                "*2\r\n$3\r\ndst\r\n$1\r\na\r\n",
                "{name}: {replace:?}"
            );
        }
        assert_eq!(pusher.call(&["FLUSHALL"]), "+OK\r\n");
    }
}

/// Sends `bytes` on a new connection and returns what comes back until the server closes it
/// (then ending in `<closed>`) or stays quiet for 300 ms (`<open>`).
fn exchange(port: u16, bytes: &[u8]) -> String {
    use std::io::Read;
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_millis(300)))
        .expect("timeout");
    stream.write_all(bytes).expect("send");
    let mut got = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        match stream.read(&mut chunk) {
            Ok(0) => break "<closed>",
            Ok(n) => got.extend_from_slice(&chunk[..n]),
            Err(_) => break "<open>",
        }
    };
    format!("{}{end}", String::from_utf8_lossy(&got))
}

#[test]
fn connection_edge_cases_answer_byte_for_byte_as_redis() {
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        // SHUTDOWN may not be queued: refused, it dooms the transaction.
        (
            "shutdown inside multi",
            [
                multibulk(&["MULTI"]),
                multibulk(&["SHUTDOWN", "NOSAVE"]),
                multibulk(&["PING"]),
                multibulk(&["EXEC"]),
            ]
            .concat(),
        ),
        // A refused EXEC ends the transaction, as EXECABORT, also in a subscriber's context.
        (
            "exec while subscribed",
            [multibulk(&["SUBSCRIBE", "x"]), multibulk(&["EXEC"])].concat(),
        ),
        (
            "exec with an argument while subscribed",
            [multibulk(&["SUBSCRIBE", "x"]), multibulk(&["EXEC", "y"])].concat(),
        ),
        // An empty request ends a CLIENT REPLY SKIP; a SKIP in force holds back RESET's reply.
        (
            "skip, blank line, ping",
            [
                multibulk(&["CLIENT", "REPLY", "SKIP"]),
                b"\r\n".to_vec(),
                multibulk(&["PING"]),
            ]
            .concat(),
        ),
        (
            "skip, *0, ping",
            [
                multibulk(&["CLIENT", "REPLY", "SKIP"]),
                b"*0\r\n".to_vec(),
                multibulk(&["PING"]),
            ]
            .concat(),
        ),
        (
            "skip, reset, ping",
            [
                multibulk(&["CLIENT", "REPLY", "SKIP"]),
                multibulk(&["RESET"]),
                multibulk(&["PING"]),
            ]
            .concat(),
        ),
        // A QUIT or a protocol error whose reply is held back never closes the connection.
        (
            "reply off, quit",
            [
                multibulk(&["CLIENT", "REPLY", "OFF"]),
                multibulk(&["QUIT"]),
                multibulk(&["PING"]),
            ]
            .concat(),
        ),
        (
            "reply off, protocol error",
            [multibulk(&["CLIENT", "REPLY", "OFF"]), b"*x\r\n".to_vec()].concat(),
        ),
        // … unless something else goes out with it: the write closes it.
        (
            "ping, reply off, quit",
            [
                multibulk(&["PING"]),
                multibulk(&["CLIENT", "REPLY", "OFF"]),
                multibulk(&["QUIT"]),
            ]
            .concat(),
        ),
        (
            "ping, skip, protocol error",
            [
                multibulk(&["PING"]),
                multibulk(&["CLIENT", "REPLY", "SKIP"]),
                b"*x\r\n".to_vec(),
            ]
            .concat(),
        ),
        (
            "reply off, subscribe, quit",
            [
                multibulk(&["CLIENT", "REPLY", "OFF"]),
                multibulk(&["SUBSCRIBE", "c"]),
                multibulk(&["QUIT"]),
            ]
            .concat(),
        ),
        // A zero byte before a count line's CR: the line is not complete yet.
        ("nul in *N", b"*1\x00\r\n$4\r\nPING\r\n".to_vec()),
        ("nul in $N", b"*1\r\n$4\x00\r\nPING\r\n".to_vec()),
        ("nul for $", b"*1\r\n\x00\r\n".to_vec()),
        // An HTTP request is dropped unanswered, with the replies before it in the same write.
        (
            "post",
            [
                multibulk(&["PING"]),
                b"POST / HTTP/1.1\r\n".to_vec(),
                multibulk(&["PING"]),
            ]
            .concat(),
        ),
        (
            "host",
            [multibulk(&["PING"]), multibulk(&["host:", "x"])].concat(),
        ),
        // Words echoed in errors: up to a zero byte, CR and LF made spaces, 128 bytes of an
        // unknown subcommand.
        ("client a crlf b", multibulk(&["CLIENT", "a\r\nb"])),
        ("client a nul b", multibulk(&["CLIENT", "a\0b"])),
        ("client long", multibulk(&["CLIENT", &"x".repeat(130)])),
        ("hello option", multibulk(&["HELLO", "3", "a\r\nb"])),
        (
            "kill user",
            multibulk(&["CLIENT", "KILL", "USER", "a\r\nb"]),
        ),
        ("list type", multibulk(&["CLIENT", "LIST", "TYPE", "a\nb"])),
    ];
    for (name, bytes) in cases {
        assert_eq!(
            exchange(ministore.port(), &bytes),
            exchange(redis.port(), &bytes),
            "{name}"
        );
    }
}

#[test]
fn a_lingering_subscriber_is_closed_by_the_next_message_not_sent_it() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut subscriber = RawClient::connect(server.port());
        let mut publisher = RawClient::connect(server.port());
        subscriber.send(&["CLIENT", "REPLY", "OFF"]);
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(
            subscriber.call(&["SUBSCRIBE", "ch9"]),
            "*3\r\n$9\r\nsubscribe\r\n$3\r\nch9\r\n:1\r\n",
            "{name}"
        );
        // A protocol error whose reply is held back: the connection waits, flagged `c`.
        subscriber.send_raw(b"*x\r\n");
        std::thread::sleep(Duration::from_millis(100));
        let list = publisher.call(&["CLIENT", "LIST", "TYPE", "pubsub"]);
        assert!(list.contains(" flags=Pc "), "{name}: {list}");
        assert_eq!(
            publisher.call(&["PUBLISH", "ch9", "m1"]),
            ":1\r\n",
            "{name}"
        );
        assert_eq!(
            subscriber.read_to_close(),
            "",
            "{name}: nothing is sent to it"
        );
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            publisher.call(&["PUBSUB", "NUMSUB", "ch9"]),
            "*2\r\n$3\r\nch9\r\n:0\r\n",
            "{name}: the message closed it"
        );
    }
}

#[test]
fn an_element_pushed_just_after_a_waiter_hung_up_stays_in_the_list() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut pusher = RawClient::connect(server.port());
        for command in [
            &["BLPOP", "gone", "0"][..],
            &["BLMOVE", "gone", "dest", "LEFT", "RIGHT", "0"],
        ] {
            let mut waiter = RawClient::connect(server.port());
            waiter.send(command);
            std::thread::sleep(Duration::from_millis(150));
            // The push comes right after the hang-up, before a waiting thread would look.
            drop(waiter);
            assert_eq!(pusher.call(&["RPUSH", "gone", "a"]), ":1\r\n", "{name}");
            assert_eq!(
                pusher.call(&["LRANGE", "gone", "0", "-1"]),
                "*1\r\n$1\r\na\r\n",
                "{name}: {command:?}"
            );
            assert_eq!(pusher.call(&["DEL", "gone", "dest"]), ":1\r\n", "{name}");
        }
    }
}

#[test]
fn client_unblock_ends_a_wait_as_its_timeout_or_with_an_error() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut waiter = RawClient::connect(server.port());
        let mut admin = RawClient::connect(server.port());
        let id = waiter.call(&["CLIENT", "ID"]);
        let id = id.trim_start_matches(':').trim_end();
        // Not waiting: 0, and the arguments are read as Redis reads them, reason first.
        for (words, reply) in [
            (&["CLIENT", "UNBLOCK", id][..], ":0\r\n"),
            (&["CLIENT", "UNBLOCK", "999999"], ":0\r\n"),
            (&["CLIENT", "UNBLOCK", "-3"], ":0\r\n"),
            (&["CLIENT", "UNBLOCK", "x", "bogus"], "-ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\r\n"),
            (&["CLIENT", "UNBLOCK", "x", "timeout"], "-ERR value is not an integer or out of range\r\n"),
            (&["CLIENT", "UNBLOCK", id, "error", "more"], "-ERR unknown subcommand or wrong number of arguments for 'UNBLOCK'. Try CLIENT HELP.\r\n"),
            (&["CLIENT", "unblock"], "-ERR wrong number of arguments for 'client|unblock' command\r\n"),
        ] {
            assert_eq!(admin.call(words), reply, "{name}: {words:?}");
        }
        // TIMEOUT (the default) answers what the timeout would: a null array, BLMOVE's too.
        for words in [
            &["BLPOP", "l", "0"][..],
            &["BLMOVE", "l", "m", "LEFT", "RIGHT", "0"],
        ] {
            waiter.send(words);
            std::thread::sleep(Duration::from_millis(150));
            assert_eq!(admin.call(&["CLIENT", "UNBLOCK", id]), ":1\r\n", "{name}");
            assert_eq!(waiter.read(), "*-1\r\n", "{name}: {words:?}");
        }
        waiter.send(&["BZPOPMIN", "z", "0"]);
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(
            admin.call(&["CLIENT", "UNBLOCK", id, "ERROR"]),
            ":1\r\n",
            "{name}"
        );
        assert_eq!(
            waiter.read(),
            "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n",
            "{name}"
        );
        // The client is no longer waiting: a push reaches nobody, and it runs commands again.
        assert_eq!(
            admin.call(&["CLIENT", "UNBLOCK", id, "timeout"]),
            ":0\r\n",
            "{name}"
        );
        assert_eq!(admin.call(&["RPUSH", "l", "x"]), ":1\r\n", "{name}");
        assert_eq!(waiter.call(&["LLEN", "l"]), ":1\r\n", "{name}");
    }
}

#[test]
fn connection_commands_read_their_arguments_as_redis_does() {
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    let mut ours = RawClient::connect(ministore.port());
    let mut theirs = RawClient::connect(redis.port());
    let lines: &[&[&str]] = &[
        &["HELLO", "02"],
        &["HELLO", "+3"],
        &["HELLO", "-0"],
        &["AUTH"],
        &["AUTH", "a", "b", "c"],
        &["SHUTDOWN", "foo"],
        &["SHUTDOWN", "NOSAVE", "SAVE"],
        &["SHUTDOWN", "ABORT", "NOSAVE"],
        &["SHUTDOWN", "ABORT"],
        &["MULTI"],
        &["BLMOVE", "a", "b", "LEFT", "RIGHT", "0"],
        &["BRPOPLPUSH", "a", "b", "0"],
        &["BLPOP", "a", "0"],
        &["EXEC"],
        &["BLPOP", "a", "1e-400"],
        &["PUBSUB", "HELP"],
        &["PUBSUB", "HELP", "x"],
        &["PUBSUB", "CHANNELS", "a", "b"],
        &["PUBSUB", "NUMPAT", "x"],
        &["RESET", "x"],
        // Each HELLO option takes effect as it is read.
        &["HELLO", "2", "SETNAME", "early", "AUTH", "bob", "x"],
        &["CLIENT", "GETNAME"],
        &["HELLO", "2", "SETNAME", "again", "FOO"],
        &["CLIENT", "GETNAME"],
        &["CLIENT", "LIST", "ID", "0"],
        &["CLIENT", "LIST", "ID", "-5", "99999"],
        &["CLIENT", "LIST", "ID", "x"],
        &["CLIENT", "LIST", "TYPE", "normal", "ID", "1"],
        &["CLIENT", "LIST", "TYPE", "master"],
        &["CLIENT", "LIST", "TYPE", "bogus"],
        &["CLIENT", "LIST", "extra"],
        &["CLIENT", "HELP"],
        &["client", "help"],
        &["CLIENT", "HELP", "x"],
    ];
    for words in lines {
        assert_eq!(ours.call(words), theirs.call(words), "{words:?}");
    }
    // A CLIENT KILL filter given twice: the later one holds.
    let mut other_ours = RawClient::connect(ministore.port());
    let mut other_theirs = RawClient::connect(redis.port());
    assert_eq!(other_ours.call(&["PING"]), other_theirs.call(&["PING"]));
    let kill = ["CLIENT", "KILL", "TYPE", "pubsub", "TYPE", "normal"];
    assert_eq!(ours.call(&kill), ":1\r\n");
    assert_eq!(theirs.call(&kill), ":1\r\n");
    // Client ids in the order clients connected, however their threads start.
    for server in [&ministore, &redis] {
        let mut clients: Vec<RawClient> =
            (0..6).map(|_| RawClient::connect(server.port())).collect();
        let ids: Vec<u64> = clients
            .iter_mut()
            .map(|client| client.call(&["CLIENT", "ID"]))
            .map(|reply| reply[1..reply.len() - 2].parse().expect("an integer reply"))
            .collect();
        assert!(
            ids.windows(2).all(|w| w[1] == w[0] + 1),
            "{}: {ids:?}",
            server.name()
        );
    }
}

#[test]
fn waiters_are_served_longest_waiting_first_before_the_pushers_next_command() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut first = RawClient::connect(server.port());
        let mut second = RawClient::connect(server.port());
        let mut pusher = RawClient::connect(server.port());
        first.send(&["BLPOP", "l", "0"]);
        std::thread::sleep(Duration::from_millis(100));
        second.send(&["BLPOP", "l", "0"]);
        std::thread::sleep(Duration::from_millis(100));
        // The push and a read of what is left in one write: both waiters are served in
        // between, the one waiting longest first.
        let mut both = multibulk(&["RPUSH", "l", "a", "b"]);
        both.extend(multibulk(&["LLEN", "l"]));
        pusher.send_raw(&both);
        assert_eq!(pusher.read(), ":2\r\n", "{name}");
        assert_eq!(pusher.read(), ":0\r\n", "{name}: the waiters took both");
        assert_eq!(first.read(), "*2\r\n$1\r\nl\r\n$1\r\na\r\n", "{name}");
        assert_eq!(second.read(), "*2\r\n$1\r\nl\r\n$1\r\nb\r\n", "{name}");
        // A key of another type meanwhile leaves the waiter waiting (Redis 7.0).
        first.send(&["BLPOP", "k", "0"]);
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(pusher.call(&["SET", "k", "x"]), "+OK\r\n");
        assert_eq!(pusher.call(&["DEL", "k"]), ":1\r\n");
        assert_eq!(pusher.call(&["RPUSH", "k", "y"]), ":1\r\n");
        assert_eq!(first.read(), "*2\r\n$1\r\nk\r\n$1\r\ny\r\n", "{name}");
        // A move whose destination became another type is served its WRONGTYPE at once, and
        // the element stays where it was.
        for command in [
            &["BLMOVE", "src", "dst", "LEFT", "LEFT", "5"][..],
            &["BRPOPLPUSH", "src", "dst", "5"][..],
        ] {
            first.send(command);
            std::thread::sleep(Duration::from_millis(100));
            assert_eq!(pusher.call(&["SET", "dst", "str"]), "+OK\r\n");
            assert_eq!(pusher.call(&["RPUSH", "src", "a"]), ":1\r\n");
            assert!(
                first.read().starts_with("-WRONGTYPE"),
                "{name}: {command:?}"
            );
            assert_eq!(pusher.call(&["LLEN", "src"]), ":1\r\n", "{name}");
            assert_eq!(pusher.call(&["DEL", "src", "dst"]), ":2\r\n", "{name}");
        }
        // A waiter that hung up with a command sent ahead takes nothing.
        let mut gone = RawClient::connect(server.port());
        let mut ahead = multibulk(&["BLPOP", "q", "0"]);
        ahead.extend(multibulk(&["PING"]));
        gone.send_raw(&ahead);
        std::thread::sleep(Duration::from_millis(100));
        drop(gone);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(pusher.call(&["RPUSH", "q", "z"]), ":1\r\n");
        assert_eq!(
            pusher.call(&["LLEN", "q"]),
            ":1\r\n",
            "{name}: z is still there"
        );
    }
}

#[test]
fn scripts_reply_in_the_callers_protocol_and_setresp_3_reads_resp3() {
    let commands: &[&[&str]] = &[
        &["HSET", "h", "f", "v"],
        &["SADD", "s", "a"],
        &["ZADD", "z", "1.5", "m", "0.1", "n"],
        &["SET", "lcs1", "ohmytext"],
        &["SET", "lcs2", "mynewtext"],
        &["LCS", "lcs1", "lcs2", "IDX"],
        &["LCS", "lcs1", "lcs2", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"],
        // Lua values as the caller's protocol has them.
        &["EVAL", "return nil", "0"],
        &["EVAL", "return false", "0"],
        &["EVAL", "return true", "0"],
        &["EVAL", "return {1, false, 2}", "0"],
        &["EVAL", "return {double=1.5}", "0"],
        &["EVAL", "return {double=0.1}", "0"],
        &["EVAL", "return {double=1/0}", "0"],
        &["EVAL", "return {double=-1/0}", "0"],
        &["EVAL", "return {map={a=1}}", "0"],
        &["EVAL", "return {map={}}", "0"],
        &["EVAL", "return {map={a={map={b={double=2.5}}}}}", "0"],
        &["EVAL", "return {map={a=false}}", "0"],
        &["EVAL", "return {set={a=true}}", "0"],
        &["EVAL", "return {set={}}", "0"],
        &["EVAL", "return {big_number='123456789012345678901234567890'}", "0"],
        &["EVAL", "return {verbatim_string={format='txt', string='hi'}}", "0"],
        &["EVAL", "return {verbatim_string={format='markdown', string='# hi'}}", "0"],
        &["EVAL", "return {verbatim_string={format='x', string='hi'}}", "0"],
        &["EVAL", "return {1, {double=2.5}, {map={k='v'}}, {set={s=true}}}", "0"],
        &["EVAL", "return {ok='fine', map={a=1}}", "0"],
        &["EVAL", "return {err='ERR bad', double=1}", "0"],
        // After redis.setresp(3): RESP3 replies in, booleans out.
        &["EVAL", "redis.setresp(3) return true", "0"],
        &["EVAL", "redis.setresp(3) return false", "0"],
        &["EVAL", "redis.setresp(3) return {true, false, 1}", "0"],
        &["EVAL", "redis.setresp(3) return {map={a=false}}", "0"],
        &["EVAL", "redis.setresp(3) return nil", "0"],
        &["EVAL", "redis.setresp(3) return redis.call('get', 'nokey')", "0"],
        &["EVAL", "return redis.call('get', 'nokey')", "0"],
        &["EVAL", "redis.setresp(3) return redis.call('hgetall', KEYS[1])", "1", "h"],
        &["EVAL", "redis.setresp(3) return redis.call('hgetall', 'nokey')", "0"],
        &["EVAL", "redis.setresp(2) return redis.call('hgetall', KEYS[1])", "1", "h"],
        &["EVAL", "redis.setresp(3) return redis.call('smembers', KEYS[1])", "1", "s"],
        &["EVAL", "redis.setresp(3) return redis.call('zscore', KEYS[1], 'n')", "1", "z"],
        &["EVAL", "redis.setresp(3) return redis.call('zrange', KEYS[1], 0, -1, 'withscores')", "1", "z"],
        &["EVAL", "redis.setresp(3) return redis.call('zmscore', KEYS[1], 'm', 'none')", "1", "z"],
        &["EVAL", "redis.setresp(3) return redis.call('zincrby', KEYS[1], 1, 'm')", "1", "z"],
        &["EVAL", "redis.setresp(3) return redis.call('lcs', 'lcs1', 'lcs2', 'idx').map.len", "0"],
        &["EVAL", "redis.setresp(3) return redis.call('set', 'k', 'v')", "0"],
        &["EVAL", "redis.setresp(3) return redis.pcall('incr', KEYS[1])", "1", "h"],
        &["EVAL", "redis.setresp(5)", "0"],
        &["FUNCTION", "LOAD", "#!lua name=r3\nredis.register_function('r3', function(keys) redis.setresp(3) return {redis.call('hgetall', keys[1]), true} end)"],
        &["FCALL", "r3", "1", "h"],
        &["FUNCTION", "FLUSH"],
        &["MULTI"],
        &["EVAL", "return {double=1.5}", "0"],
        &["EVAL", "redis.setresp(3) return {false, redis.call('zscore', KEYS[1], 'm')}", "1", "z"],
        &["EXEC"],
    ];
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    for resp in ["2", "3"] {
        let mut ours = RawClient::connect(ministore.port());
        let mut theirs = RawClient::connect(redis.port());
        ours.call(&["HELLO", resp]);
        theirs.call(&["HELLO", resp]);
        for words in commands {
            assert_eq!(ours.call(words), theirs.call(words), "RESP{resp} {words:?}");
        }
        ours.call(&["FLUSHALL"]);
        theirs.call(&["FLUSHALL"]);
    }
}

#[test]
fn replies_before_a_waiting_command_or_a_push_to_oneself_go_out_first() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        // SET's reply reaches the client while its BLPOP waits in the same write: the push
        // another client sends after reading it is what BLPOP gets.
        let mut waiter = RawClient::connect(server.port());
        let mut pusher = RawClient::connect(server.port());
        let mut both = multibulk(&["SET", "x", "1"]);
        both.extend(multibulk(&["BLPOP", "queue", "3"]));
        waiter.send_raw(&both);
        assert_eq!(waiter.read(), "+OK\r\n", "{name}");
        assert_eq!(pusher.call(&["RPUSH", "queue", "job"]), ":1\r\n", "{name}");
        assert_eq!(
            waiter.read(),
            "*2\r\n$5\r\nqueue\r\n$3\r\njob\r\n",
            "{name}"
        );
        // A RESP3 subscriber publishing to its own channel: the reply before the PUBLISH,
        // then the message, then PUBLISH's count.
        let mut me = RawClient::connect(server.port());
        me.call(&["HELLO", "3"]);
        me.send(&["SUBSCRIBE", "c"]);
        assert_eq!(
            me.read(),
            ">3\r\n$9\r\nsubscribe\r\n$1\r\nc\r\n:1\r\n",
            "{name}"
        );
        let mut both = multibulk(&["GET", "nokey"]);
        both.extend(multibulk(&["PUBLISH", "c", "m"]));
        me.send_raw(&both);
        assert_eq!(me.read(), "_\r\n", "{name}");
        assert_eq!(
            me.read(),
            ">3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nm\r\n",
            "{name}"
        );
        assert_eq!(me.read(), ":1\r\n", "{name}");
    }
}

#[test]
fn client_reply_no_evict_and_the_last_command_a_list_names() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut me = RawClient::connect(server.port());
        let mut other = RawClient::connect(server.port());
        // OFF answers nothing until ON; SKIP holds back the next command's reply alone.
        for words in [
            &["CLIENT", "REPLY", "OFF"][..],
            &["PING"],
            &["CLIENT", "REPLY", "ON"],
            &["CLIENT", "REPLY", "SKIP"],
            &["PING"],
            &["ECHO", "after"],
        ] {
            me.send(words);
        }
        assert_eq!(me.read(), "+OK\r\n", "{name}");
        assert_eq!(me.read(), "$5\r\nafter\r\n", "{name}");
        // ON right after SKIP is answered; the SUBSCRIBE family's confirmations go out whatever
        // CLIENT REPLY says; a protocol error under OFF closes the connection unanswered.
        me.send(&["CLIENT", "REPLY", "SKIP"]);
        assert_eq!(me.call(&["CLIENT", "REPLY", "ON"]), "+OK\r\n", "{name}");
        let mut sub = RawClient::connect(server.port());
        sub.send(&["CLIENT", "REPLY", "OFF"]);
        sub.send(&["SUBSCRIBE", "a", "a"]);
        sub.send(&["UNSUBSCRIBE", "a"]);
        for count in ["1", "1", "0"] {
            let confirmation = sub.read();
            assert!(
                confirmation.ends_with(&format!(":{count}\r\n")),
                "{name}: {confirmation}"
            );
        }
        let mut broken = RawClient::connect(server.port());
        broken.send(&["CLIENT", "REPLY", "OFF"]);
        broken.send_raw(b"*1\r\nx\r\n");
        assert_eq!(broken.read_to_close(), "", "{name}");
        assert_eq!(
            me.call(&["CLIENT", "REPLY", "MAYBE"]),
            "-ERR syntax error\r\n",
            "{name}"
        );
        assert_eq!(
            me.call(&["CLIENT", "REPLY"]),
            "-ERR wrong number of arguments for 'client|reply' command\r\n",
            "{name}"
        );
        // NO-EVICT shows as the `e` flag, and RESET leaves it.
        assert_eq!(me.call(&["CLIENT", "NO-EVICT", "on"]), "+OK\r\n", "{name}");
        assert_eq!(me.call(&["RESET"]), "+RESET\r\n", "{name}");
        let info = me.call(&["CLIENT", "INFO"]);
        assert!(info.contains(" flags=e "), "{name}: {info}");
        // A command or subcommand Redis does not find is the last command as NULL.
        let id = me.call(&["CLIENT", "ID"]);
        let id = id.trim_start_matches(':').trim_end();
        for (words, cmd) in [
            (&["FOO", "a"][..], "cmd=NULL "),
            (&["SCRIPT", "BOGUS"], "cmd=NULL "),
            (&["CLIENT", "BOGUS"], "cmd=NULL "),
            (&["GET"], "cmd=get "),
            (&["OBJECT", "ENCODING", "nokey"], "cmd=object|encoding "),
        ] {
            me.call(words);
            let line = other.call(&["CLIENT", "LIST", "ID", id]);
            assert!(line.contains(cmd), "{name}: {words:?}: {line}");
        }
    }
}

#[test]
fn a_scripts_pcall_catches_script_kill_once_and_the_next_line_raises_it_again() {
    let Some(servers) = both_servers(100) else {
        return;
    };
    for server in servers {
        let name = server.name();
        let mut runner = RawClient::connect(server.port());
        let mut other = RawClient::connect(server.port());
        let mut kill = |runner: &mut RawClient, script: &str| {
            runner.send(&["EVAL", script, "0"]);
            std::thread::sleep(Duration::from_millis(150));
            assert_eq!(other.call(&["SCRIPT", "KILL"]), "+OK\r\n", "{name}");
            runner.read()
        };
        // Caught, and nothing after it on a new line: the script returns the error's text.
        let caught = kill(
            &mut runner,
            "local ok, e = pcall(function() while true do end end) return e",
        );
        assert_eq!(
            caught, "$45\r\nERR Script killed by user with SCRIPT KILL...\r\n",
            "{name}"
        );
        // The next line raises it again.
        let next_line = kill(
            &mut runner,
            "local ok, e = pcall(function() while true do end end)\nreturn 'survived'",
        );
        assert!(
            next_line.starts_with("-ERR Script killed by user with SCRIPT KILL... script: ")
                && next_line.ends_with(", on @user_script:2.\r\n"),
            "{name}: {next_line}"
        );
        // A while loop's first pass jumps back to nothing, so the same line goes on; entering a
        // function is a new line to the hook, so a second pcall on it catches the kill again.
        let first_pass = kill(
            &mut runner,
            "local ok, e = pcall(function() while true do end end) while true do return 'ran' end",
        );
        assert_eq!(first_pass, "$3\r\nran\r\n", "{name}");
        let entered = kill(
            &mut runner,
            "local ok, e = pcall(function() while true do end end) return {pcall(function() return 1 end)}",
        );
        assert_eq!(
            entered, "*2\r\n$-1\r\n$45\r\nERR Script killed by user with SCRIPT KILL...\r\n",
            "{name}"
        );
        // A loop around the pcall jumps back, which raises it again too: the script ends.
        let looped = kill(
            &mut runner,
            "while true do pcall(function() while true do end end) end",
        );
        assert!(
            looped.starts_with("-ERR Script killed by user with SCRIPT KILL... script: ")
                && looped.ends_with(", on @user_script:1.\r\n"),
            "{name}: {looped}"
        );
        assert_eq!(other.call(&["PING"]), "+PONG\r\n", "{name}");
    }
}

/// A pipeline written whole before any reply is read (as redis-py's and Jedis's pipelines are),
/// with replies larger than the sockets' buffers: the server keeps reading while its replies
/// wait to go out, and every reply arrives.
#[test]
fn a_pipeline_sent_whole_before_its_replies_are_read_gets_every_reply() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    let value = "v".repeat(1 << 20);
    let echoed = "e".repeat(4 << 20);
    let gets = 24;
    for server in &servers {
        let name = server.name();
        let mut client = RawClient::connect(server.port());
        assert_eq!(client.call(&["SET", "big", &value]), "+OK\r\n", "{name}");
        let mut pipeline = Vec::new();
        for _ in 0..gets {
            pipeline.extend(multibulk(&["GET", "big"]));
        }
        pipeline.extend(multibulk(&["PING"]));
        pipeline.extend(multibulk(&["ECHO", &echoed]));
        // Bounded, so that a server that stops reading fails the test instead of hanging it.
        client
            .stream()
            .set_write_timeout(Some(Duration::from_secs(30)))
            .expect("write timeout");
        client.send_raw(&pipeline);
        for n in 0..gets {
            let reply = client.read();
            assert!(
                reply.len() == value.len() + 12 && reply.starts_with("$1048576\r\nvv"),
                "{name}: GET #{n}"
            );
        }
        assert_eq!(client.read(), "+PONG\r\n", "{name}");
        assert_eq!(client.read().len(), echoed.len() + 12, "{name}: ECHO");
    }
}

/// A subscriber that stops reading holds up no publisher: its messages wait in its output
/// until that reaches Redis's pubsub limit (32 MB), and then it is closed — later publishes
/// count no one, and it never gets more than was published before the close.
#[test]
fn a_subscriber_that_stops_reading_is_closed_past_its_output_limit() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    let message = "m".repeat(1 << 20);
    for server in &servers {
        let name = server.name();
        let mut subscriber = RawClient::connect(server.port());
        assert_eq!(
            subscriber.call(&["SUBSCRIBE", "feed"]),
            "*3\r\n$9\r\nsubscribe\r\n$4\r\nfeed\r\n:1\r\n",
            "{name}"
        );
        let mut publisher = RawClient::connect(server.port());
        // 48 MB in all, past the 32 MB limit by far more than the sockets' buffers hold.
        let counts: Vec<String> = (0..48)
            .map(|_| publisher.call(&["PUBLISH", "feed", &message]))
            .collect();
        let reached = counts.iter().take_while(|c| *c == ":1\r\n").count();
        assert!(
            reached > 0 && counts[reached..].iter().all(|c| c == ":0\r\n") && reached < 48,
            "{name}: each PUBLISH reaches the subscriber until it is closed, then no one: {counts:?}"
        );
        assert_eq!(
            publisher.call(&["PUBSUB", "NUMSUB", "feed"]),
            "*2\r\n$4\r\nfeed\r\n:0\r\n",
            "{name}"
        );
        // The subscriber's stream: whole messages, then the close.
        let mut got = Vec::new();
        let _ = std::io::Read::read_to_end(&mut subscriber.stream(), &mut got);
        let frame = format!(
            "*3\r\n$7\r\nmessage\r\n$4\r\nfeed\r\n${}\r\n{message}\r\n",
            message.len()
        );
        assert!(
            got.len() <= reached * frame.len(),
            "{name}: no more than was published"
        );
    }
}

/// CLIENT KILL frees the client for the very next command, as Redis does: a second kill finds
/// no one, CLIENT LIST no longer lists it, and a killed subscriber no longer counts.
#[test]
fn a_killed_client_is_gone_for_the_next_command() {
    let Some(servers) = both_servers(5000) else {
        return;
    };
    for server in &servers {
        let name = server.name();
        let mut killer = RawClient::connect(server.port());
        let mut victim = RawClient::connect(server.port());
        let id = victim.call(&["CLIENT", "ID"]);
        let id = id.trim_start_matches(':').trim_end();
        let mut pipeline = multibulk(&["CLIENT", "KILL", "ID", id]);
        pipeline.extend(multibulk(&["CLIENT", "KILL", "ID", id]));
        pipeline.extend(multibulk(&["CLIENT", "LIST", "ID", id]));
        killer.send_raw(&pipeline);
        let replies = [killer.read(), killer.read(), killer.read()];
        assert_eq!(replies, [":1\r\n", ":0\r\n", "$0\r\n\r\n"], "{name}");

        let mut subscriber = RawClient::connect(server.port());
        subscriber.call(&["SUBSCRIBE", "q"]);
        let mut pipeline = multibulk(&["CLIENT", "KILL", "TYPE", "pubsub"]);
        pipeline.extend(multibulk(&["PUBSUB", "NUMSUB", "q"]));
        pipeline.extend(multibulk(&["PUBLISH", "q", "x"]));
        killer.send_raw(&pipeline);
        let replies = [killer.read(), killer.read(), killer.read()];
        assert_eq!(
            replies,
            [":1\r\n", "*2\r\n$1\r\nq\r\n:0\r\n", ":0\r\n"],
            "{name}"
        );
    }
}

/// INFO's sections and fields as `field:value` lines under `# Name` headings, in order.
fn info_sections(text: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut sections: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for line in text.split("\r\n").filter(|l| !l.is_empty()) {
        if let Some(title) = line.strip_prefix("# ") {
            sections.push((title.to_string(), Vec::new()));
        } else if let (Some((field, value)), Some(section)) =
            (line.split_once(':'), sections.last_mut())
        {
            section.1.push((field.to_string(), value.to_string()));
        }
    }
    sections
}

/// INFO as clients read it on connecting (ioredis's ready check reads `loading`, BullMQ
/// `redis_version` and `maxmemory_policy`): every section and field ministore prints is one
/// Redis 7.0 prints, in Redis's order, and the fields that do not measure the machine or the
/// moment read as Redis's do for the same clients, scripts and keys.
#[test]
fn info_prints_redis_sections_and_fields_with_the_same_values() {
    let Some([ministore, redis]) = both_servers(5000) else {
        return;
    };
    let measured = [
        "process_id",
        "tcp_port",
        "server_time_usec",
        "uptime_in_seconds",
        "executable",
        "config_file",
    ];
    let mut seen = Vec::new();
    for server in [&ministore, &redis] {
        let mut client = RawClient::connect(server.port());
        let mut subscriber = RawClient::connect(server.port());
        subscriber.call(&["SUBSCRIBE", "news"]);
        subscriber.call(&["PSUBSCRIBE", "n*"]);
        client.call(&["SET", "a", "1"]);
        client.call(&["SET", "b", "2", "PX", "100000"]);
        client.call(&["SELECT", "3"]);
        client.call(&["SET", "c", "3"]);
        client.call(&["SCRIPT", "LOAD", "return 1"]);
        client.call(&[
            "FUNCTION",
            "LOAD",
            "#!lua name=lib\nredis.register_function('f', function() return 1 end)",
        ]);
        let reply = client.call(&["INFO"]);
        let text = reply.split_once("\r\n").map_or("", |(_, body)| body);
        seen.push(info_sections(text));
        // A section asked for by name, in any case: that section alone.
        let one = client.call(&["INFO", "KeySpace"]);
        let one = info_sections(one.split_once("\r\n").map_or("", |(_, body)| body));
        assert_eq!(one.len(), 1, "{}: {one:?}", server.name());
        assert_eq!(one[0].0, "Keyspace");
        assert_eq!(
            client.call(&["INFO", "nosuch"]),
            "$0\r\n\r\n",
            "{}",
            server.name()
        );
    }
    let (ours, redis) = (&seen[0], &seen[1]);
    let mut at = 0;
    for (title, fields) in ours {
        let Some(offset) = redis[at..].iter().position(|(t, _)| t == title) else {
            panic!("section {title} is not among Redis's, or out of its order: {redis:?}");
        };
        at += offset + 1;
        let theirs = &redis[at - 1].1;
        let mut from = 0;
        for (field, value) in fields {
            let Some(offset) = theirs[from..].iter().position(|(f, _)| f == field) else {
                panic!("{title}: field {field} is not among Redis's, or out of its order");
            };
            from += offset + 1;
            let redis_value = &theirs[from - 1].1;
            if measured.contains(&field.as_str()) {
                continue;
            }
            // Redis's avg_ttl is an estimate its expiry cycle makes as it samples keys.
            let value = value.split(",avg_ttl").next().unwrap_or(value);
            let redis_value = redis_value.split(",avg_ttl").next().unwrap_or(redis_value);
            assert_eq!(value, redis_value, "{title}: {field}");
        }
    }
    let loading = ours
        .iter()
        .flat_map(|(_, f)| f)
        .find(|(f, _)| f == "loading");
    assert_eq!(loading.map(|(_, v)| v.as_str()), Some("0"));
}
