//! The picked lock as the explorer runs it: each operation's steps — a command line or an `EVAL`
//! of a script, shown exactly as client A sends it, the script's whole text under it — with the
//! rule that says whether the step succeeded, and where the scripts come from.

use crate::components::code::code_markup;
use crate::components::highlight::Lang;
use crate::components::markup::Markup;
use crate::scenarios::lockcheck::{Call, ClientId, LockSpec, OpKind, Provenance, Success};

/// What a step's reply must be for the operation to go on (at its last step: to succeed).
pub fn success_words(success: Success) -> &'static str {
    match success {
        Success::Ok => "goes on if the reply is OK",
        Success::Nil => "goes on if the reply is nil",
        Success::Zero => "goes on if the reply is 0",
        Success::Truthy => {
            "goes on unless the reply is an error, nil, 0 or \"0\", or an array that is empty \
             or holds one of these"
        }
        Success::EqualsToken => "goes on if the reply is the client's own token",
        Success::Committed => {
            "goes on if EXEC ran the queued commands (an array); nil means a watched key \
             changed or expired, and nothing ran"
        }
        Success::Always => "goes on whatever the reply",
    }
}

/// One step's line as client A sends it; a script by its file name.
fn sent_line(spec: &LockSpec, call: &Call) -> String {
    let a = ClientId::A;
    match call {
        Call::Command(words) => words
            .iter()
            .map(|w| w.resolve(spec, a))
            .collect::<Vec<_>>()
            .join(" "),
        Call::Script {
            name, keys, args, ..
        } => {
            let mut words = vec![
                "EVAL".to_string(),
                format!("<{name}>"),
                keys.len().to_string(),
            ];
            words.extend(keys.iter().chain(args).map(|w| w.resolve(spec, a)));
            words.join(" ")
        }
    }
}

/// `[data-lock-scripts]`: the operations, then the provenance.
pub fn lock_scripts(spec: &LockSpec) -> Markup {
    let mut m = Markup::new();
    m.open(
        "section",
        &[
            ("class", "ck-scripts"),
            ("data-lock-scripts", ""),
            ("aria-label", &format!("{} as it runs", spec.name)),
        ],
    )
    .open("p", &[("class", "ck-scripts-title")])
    .text(&spec.name)
    .text(": what client A sends, with ")
    .element("code", &[], spec.token(ClientId::A))
    .text(" as its token, ")
    .element("code", &[], &spec.key)
    .text(" as the key and a lease of ")
    .text(&format!("{} ms", spec.ttl_ms))
    .close("p");
    for kind in [OpKind::Acquire, OpKind::Extend, OpKind::Release] {
        m.open("div", &[("class", "ck-op"), ("data-op", kind.name())]);
        let Some(op) = spec.op(kind) else {
            m.open("p", &[("class", "ck-op-name")])
                .text(kind.name())
                .text(": none (this lock has no extend)")
                .close("p")
                .close("div");
            continue;
        };
        m.element("p", &[("class", "ck-op-name")], kind.name())
            .open("ol", &[("class", "ck-steps")]);
        let mut in_multi = false;
        for step in &op.steps {
            let line = sent_line(spec, &step.call);
            let command = line.split(' ').next().unwrap_or("").to_ascii_uppercase();
            let queued = in_multi && command != "EXEC" && command != "DISCARD";
            in_multi = command == "MULTI" || queued;
            m.open("li", &[])
                .element("code", &[("class", "ck-line")], &line)
                .text(" — ");
            if queued {
                m.text("queued: it runs at EXEC; ");
            }
            m.text(success_words(step.success));
            if let Some(call) = &step.on_refusal {
                let after = match kind {
                    OpKind::Acquire => " next: this attempt has failed".to_string(),
                    _ => format!(" next: the {} stops there", kind.name()),
                };
                m.text("; otherwise it sends ")
                    .element("code", &[("class", "ck-line")], &sent_line(spec, call))
                    .text(&after);
            }
            if let Call::Script { name, text, .. } = &step.call {
                m.open("details", &[("class", "ck-script"), ("open", "")])
                    .open("summary", &[])
                    .element("code", &[], name)
                    .text(&format!(", {} lines", text.trim_end().lines().count()))
                    .close("summary")
                    .append(code_markup(Lang::Lua, text))
                    .close("details");
            }
            m.close("li");
        }
        m.close("ol").close("div");
    }
    if let Some(note) = &spec.note {
        m.element("p", &[("class", "ck-lock-note")], note);
    }
    if let Some(provenance) = &spec.provenance {
        provenance_list(provenance, &mut m);
    }
    m.close("section");
    m
}

/// `dl[data-provenance]`: library, repository at the commit read, file, licence, and where this
/// repository keeps them.
fn provenance_list(provenance: &Provenance, m: &mut Markup) {
    let tree = format!(
        "https://{}/tree/{}",
        provenance.repository, provenance.snapshot_commit
    );
    m.open("dl", &[("class", "ck-provenance"), ("data-provenance", "")])
        .element("dt", &[], "library")
        .element("dd", &[], provenance.library)
        .element("dt", &[], "repository")
        .open("dd", &[])
        .element("a", &[("href", &tree)], provenance.repository)
        .close("dd");
    for (term, value) in [
        ("file", provenance.source_file),
        ("commit", provenance.snapshot_commit),
    ] {
        m.element("dt", &[], term)
            .open("dd", &[])
            .element("code", &[], value)
            .close("dd");
    }
    m.element("dt", &[], "licence")
        .open("dd", &[])
        .text(provenance.licence);
    for (i, file) in provenance.licence_files.iter().enumerate() {
        let href = format!(
            "https://{}/blob/{}/{file}",
            provenance.repository, provenance.snapshot_commit
        );
        m.text(if i == 0 { " — " } else { ", " })
            .element("a", &[("href", &href)], file);
    }
    m.close("dd")
        .element("dt", &[], "in this repository")
        .open("dd", &[])
        .element("code", &[], provenance.local_copy)
        .close("dd")
        .close("dl");
}
