//! §6 — references: the cited sources with what each is for, and the related pages of this course
//! (course links resolve against `crate::links`' one base URL).

use super::model::{Block, Related, RelatedList, Section, Source, SourceList};
use crate::links::CoursePage;

/// §6 · References.
pub static SECTION: Section = Section {
    id: "s6",
    number: "§6",
    heading: "References",
    source: "sources · related",
    blocks: &[
        Block::Sources(SourceList {
            heading: "Sources",
            items: &[
                Source {
                    title: "Redis — Distributed Locks",
                    href: "https://redis.io/docs/latest/develop/use/patterns/distributed-locks/",
                    note: "single-instance acquisition, owner-token release, and the failover caveat.",
                },
                Source {
                    title: "Valkey — Programmability",
                    href: "https://valkey.io/topics/programmability/",
                    note: "why a GET-then-DEL, or an HINCRBY-then-ZADD, must be one atomic script.",
                },
                Source {
                    title: "Valkey — HINCRBY",
                    href: "https://valkey.io/commands/hincrby/",
                    note: "the atomic hash increment behind the monotone attempt count.",
                },
                Source {
                    title: "Sanfilippo, S. — Is Redlock safe?",
                    href: "http://antirez.com/news/101",
                    note: "the reply to the fencing critique, weighing the lock service against the resource.",
                },
            ],
        }),
        Block::Related(RelatedList {
            heading: "Related in this course",
            items: &[
                Related {
                    title: "R2.02 · Distributed locking",
                    page: CoursePage::ModuleHub,
                    note: "the module hub",
                },
                Related {
                    title: "R2.02.1 · SET NX PX",
                    page: CoursePage::SetNxPx,
                    note: "where the lease and the fence are taken",
                },
                Related {
                    title: "R2.02.3 · Lease renewal",
                    page: CoursePage::LeaseRenewal,
                    note: "the next dive",
                },
                Related {
                    title: "/echomq/protocol",
                    page: CoursePage::EchoMqProtocol,
                    note: "the EchoMQ protocol · the worker-side lock plane",
                },
            ],
        }),
    ],
};
