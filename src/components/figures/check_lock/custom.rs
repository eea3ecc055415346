//! The reader's own lock: three text areas (`textarea[data-script="acquire"|"release"|"extend"]`;
//! acquire and extend optional), the lease, the calling convention beside them, and a Check
//! button. `LockSpec::custom` reads the texts; what it or ministore refuses is shown inline
//! (`[data-check-error]`, `role="alert"`), never as a broken page.

use leptos::prelude::*;

use super::CheckState;
use crate::components::rich_text::RichText;
use crate::content::check_lock::CUSTOM_CONVENTION;
use crate::scenarios::lockcheck::{LockSpec, OpKind};
use crate::scenarios::lost_lock::LEASE_MS;

/// The texts the reader typed, kept while they look at other locks.
#[derive(Clone, Copy)]
pub struct CustomTexts {
    acquire: RwSignal<String>,
    release: RwSignal<String>,
    extend: RwSignal<String>,
    ttl_ms: RwSignal<String>,
}

impl CustomTexts {
    /// Empty texts and the brief's lease.
    pub fn new() -> Self {
        CustomTexts {
            acquire: RwSignal::new(String::new()),
            release: RwSignal::new(String::new()),
            extend: RwSignal::new(String::new()),
            ttl_ms: RwSignal::new(LEASE_MS.to_string()),
        }
    }

    /// The lock the texts describe, or why they do not describe one.
    pub fn spec(self) -> Result<LockSpec, String> {
        let optional = |text: String| (!text.trim().is_empty()).then_some(text);
        let ttl_ms: u64 = self
            .ttl_ms
            .with_untracked(|t| t.trim().parse())
            .map_err(|_| {
                format!(
                    "the lease must be a whole number of milliseconds, not {:?}",
                    self.ttl_ms.get_untracked()
                )
            })?;
        let acquire = optional(self.acquire.get_untracked());
        let extend = optional(self.extend.get_untracked());
        LockSpec::custom(
            acquire.as_deref(),
            &self.release.get_untracked(),
            extend.as_deref(),
            ttl_ms,
        )
        .map_err(|e| e.to_string())
    }
}

/// One labelled text area.
#[component]
fn ScriptArea(
    /// Which operation it holds.
    op: OpKind,
    /// `(optional)` or `(required)`.
    need: &'static str,
    /// Its text.
    text: RwSignal<String>,
    /// An example of what goes in it.
    placeholder: &'static str,
) -> impl IntoView {
    let id = format!("ck-{}", op.name());
    view! {
        <div class="ck-area">
            <label for=id.clone()>
                <span class="ck-area-name">{op.name()}</span>
                " "
                <span class="ck-area-need">{need}</span>
            </label>
            <textarea
                id=id
                data-script=op.name()
                rows="6"
                spellcheck="false"
                autocomplete="off"
                placeholder=placeholder
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
        </div>
    }
}

/// The editor, `[data-custom]`.
#[component]
pub fn CustomEditor(
    /// The texts.
    texts: CustomTexts,
    /// Called with the lock the texts describe (or the error) when the reader presses Check.
    on_check: Callback<Result<LockSpec, String>>,
    /// The figure's state (no second Check while one runs).
    state: RwSignal<CheckState>,
) -> impl IntoView {
    let running = move || state.with(|s| matches!(s, CheckState::Running(_)));
    view! {
        <section class="ck-custom" data-custom aria-label="Your own lock">
            <p class="ck-convention">
                <RichText markup=CUSTOM_CONVENTION />
            </p>
            <div class="ck-areas">
                <ScriptArea op=OpKind::Acquire need="(optional)" text=texts.acquire placeholder="SET {key} {token} NX PX {ttl_ms}" />
                <ScriptArea op=OpKind::Release need="(required)" text=texts.release placeholder="if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0" />
                <ScriptArea op=OpKind::Extend need="(optional)" text=texts.extend placeholder="if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0" />
            </div>
            <div class="ck-run">
                <label for="ck-ttl">"Lease (ms)"</label>
                <input
                    id="ck-ttl"
                    type="text"
                    inputmode="numeric"
                    data-check-ttl
                    prop:value=move || texts.ttl_ms.get()
                    on:input=move |ev| texts.ttl_ms.set(event_target_value(&ev))
                />
                <button
                    type="button"
                    class="ck-check"
                    data-check-run
                    aria-disabled=move || running().to_string()
                    on:click=move |_| {
                        if !running() {
                            on_check.run(texts.spec());
                        }
                    }
                >
                    "Check"
                </button>
            </div>
        </section>
    }
}

/// `[data-check-error]`: why the picked lock could not be checked, inline (`role="alert"`).
#[component]
pub fn CheckError(
    /// The figure's state.
    state: RwSignal<CheckState>,
) -> impl IntoView {
    move || {
        state.with(|s| match s {
            CheckState::Failed(error) => Some(view! {
                <p class="ck-error" role="alert" data-check-error>
                    <span class="fig-mark"><span aria-hidden="true">"✗"</span> " not checked"</span>
                    " "
                    {error.clone()}
                </p>
            }),
            _ => None,
        })
    }
}
