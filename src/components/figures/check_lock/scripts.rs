//! The picked lock as the explorer runs it: each operation's steps — a command line or an `EVAL`
//! of a script, shown exactly as client A sends it, the script's whole text under it — with the
//! rule that says whether the step succeeded, and where the scripts come from.

use leptos::prelude::*;

use crate::components::code::CodeText;
use crate::components::highlight::Lang;
use crate::scenarios::lockcheck::{Call, ClientId, LockSpec, OpKind, Provenance, Success};

/// What a step's reply must be for the operation to go on (at its last step: to succeed).
pub fn success_words(success: Success) -> &'static str {
    match success {
        Success::Ok => "goes on if the reply is OK",
        Success::Nil => "goes on if the reply is nil",
        Success::Truthy => "goes on if the reply is not an error, nil, 0 or \"0\"",
        Success::EqualsToken => "goes on if the reply is the client's own token",
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
#[component]
pub fn LockScripts(
    /// The picked lock.
    spec: LockSpec,
) -> impl IntoView {
    let ops = [OpKind::Acquire, OpKind::Extend, OpKind::Release]
        .into_iter()
        .map(|kind| {
            let Some(op) = spec.op(kind) else {
                return view! {
                    <div class="ck-op" data-op=kind.name()>
                        <p class="ck-op-name">{kind.name()} ": none (this lock has no extend)"</p>
                    </div>
                }
                .into_any();
            };
            let steps = op
                .steps
                .iter()
                .map(|step| {
                    let line = sent_line(&spec, &step.call);
                    let script = match &step.call {
                        Call::Script { name, text, .. } => Some(view! {
                            <details class="ck-script" open>
                                <summary>
                                    <code>{name.clone()}</code>
                                    {format!(", {} lines", text.trim_end().lines().count())}
                                </summary>
                                <CodeText lang=Lang::Lua text=text.to_string() />
                            </details>
                        }),
                        Call::Command(_) => None,
                    };
                    view! {
                        <li>
                            <code class="ck-line">{line}</code>
                            " — "
                            {success_words(step.success)}
                            {script}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="ck-op" data-op=kind.name()>
                    <p class="ck-op-name">{kind.name()}</p>
                    <ol class="ck-steps">{steps}</ol>
                </div>
            }
            .into_any()
        })
        .collect_view();
    let token = spec.token(ClientId::A).to_string();
    view! {
        <section class="ck-scripts" data-lock-scripts aria-label=format!("{} as it runs", spec.name)>
            <p class="ck-scripts-title">
                {spec.name.clone()}
                ": what client A sends, with "
                <code>{token}</code>
                " as its token, "
                <code>{spec.key.clone()}</code>
                " as the key and a lease of "
                {format!("{} ms", spec.ttl_ms)}
            </p>
            {ops}
            {spec.note.clone().map(|note| view! { <p class="ck-lock-note">{note}</p> })}
            {spec.provenance.clone().map(|p| view! { <ProvenanceList provenance=p /> })}
        </section>
    }
}

/// `dl[data-provenance]`: library, repository at the commit read, file, licence, local copy.
#[component]
fn ProvenanceList(
    /// Where the scripts come from.
    provenance: Provenance,
) -> impl IntoView {
    let tree = format!(
        "https://{}/tree/{}",
        provenance.repository, provenance.snapshot_commit
    );
    view! {
        <dl class="ck-provenance" data-provenance>
            <dt>"library"</dt>
            <dd>{provenance.library}</dd>
            <dt>"repository"</dt>
            <dd><a href=tree>{provenance.repository}</a></dd>
            <dt>"file"</dt>
            <dd><code>{provenance.source_file}</code></dd>
            <dt>"commit"</dt>
            <dd><code>{provenance.snapshot_commit}</code></dd>
            <dt>"licence"</dt>
            <dd>{provenance.licence}</dd>
            <dt>"copy here"</dt>
            <dd><code>{provenance.local_copy}</code></dd>
        </dl>
    }
}
