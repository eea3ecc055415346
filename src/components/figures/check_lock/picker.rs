//! The picker: one button per catalogue lock and one for the reader's own, `[data-lock="<id>"]`,
//! `aria-pressed` on the picked one. Buttons in a labelled group, all in the tab order (Tab and
//! Enter or Space, as any button); before the lab is live the first wasm keeps a click for the
//! lab to replay (`lockdive_contract::lab::PendingAction`).

use std::sync::Arc;

use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
use lockdive_contract::hooks::LOCK_PICKER;

use super::CUSTOM_ID;
use crate::scenarios::lockcheck::LockSpec;

/// The picker, `[data-lock-picker]`.
#[component]
pub fn Picker(
    /// The catalogue, in the order the explorer lists it.
    locks: Arc<Vec<LockSpec>>,
    /// The picked lock's id.
    picked: RwSignal<Option<String>>,
    /// Called with the id of the button pressed.
    on_pick: Callback<String>,
) -> impl IntoView {
    let entries: Vec<(String, String)> = locks
        .iter()
        .map(|spec| (spec.id.clone(), spec.name.clone()))
        .chain(std::iter::once((
            CUSTOM_ID.to_string(),
            "your own scripts".to_string(),
        )))
        .collect();
    view! {
        <div
            class="ck-picker"
            role="group"
            aria-label="Pick a lock to check"
            {..custom_attribute(LOCK_PICKER, "")}
        >
            {entries
                .into_iter()
                .map(|(id, name)| {
                    let pressed_id = id.clone();
                    let pressed = move || {
                        picked.with(|p| p.as_deref() == Some(pressed_id.as_str())).to_string()
                    };
                    let click_id = id.clone();
                    let hook = id.clone();
                    view! {
                        <button
                            type="button"
                            class="ck-pick"
                            data-lock=hook
                            aria-pressed=pressed
                            on:click=move |_| on_pick.run(click_id.clone())
                        >
                            <span class="ck-pick-name">{name}</span>
                            <code class="ck-pick-id">{id}</code>
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}
