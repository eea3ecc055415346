//! The `ministore` command: reads redis-cli style command lines from stdin and prints each
//! reply exactly as `redis-cli --no-raw` prints it against a fresh Redis 7.0.

fn main() {
    todo!("cli helper")
}
