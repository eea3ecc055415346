//! Which choice a figure is showing, and the button that selects one. Hover, keyboard focus and a
//! tap each select; pointer leave, blur, Esc and a tap elsewhere clear what they set. One
//! [`Selection`] per figure, owned by the figure; buttons get a copy of its handle. A button may
//! also commit its choice (figure 2): see [`ChoiceButton`]'s `on_commit`.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A figure's selection, kept as three layers so one input clearing does not undo another:
/// the pointer's hover wins over a tap's pin, which wins over keyboard focus.
#[derive(Debug)]
pub struct Selection<T: Send + Sync + 'static> {
    hovered: RwSignal<Option<T>>,
    pinned: RwSignal<Option<T>>,
    focused: RwSignal<Option<T>>,
    shown: Memo<Option<T>>,
}

impl<T: Send + Sync + 'static> Clone for Selection<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Selection<T> {}

impl<T> Selection<T>
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    /// Nothing selected. Also listens on the window for Esc and for taps outside any element
    /// matching `target_selector` (the figure's buttons), until the figure is unmounted.
    pub fn new(target_selector: &'static str) -> Self {
        let hovered = RwSignal::new(None);
        let pinned = RwSignal::new(None);
        let focused = RwSignal::new(None);
        let shown = Memo::new(move |_| hovered.get().or(pinned.get()).or(focused.get()));
        let selection = Selection {
            hovered,
            pinned,
            focused,
            shown,
        };
        let escape = window_event_listener(ev::keydown, move |e| {
            if e.key() == "Escape" {
                selection.clear();
            }
        });
        let outside_tap = window_event_listener(ev::pointerdown, move |e| {
            let on_target = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest(target_selector).ok().flatten())
                .is_some();
            if !on_target {
                pinned.set(None);
            }
        });
        on_cleanup(move || {
            escape.remove();
            outside_tap.remove();
        });
        selection
    }

    /// The choice the figure shows now, if any.
    pub fn shown(&self) -> Option<T> {
        self.shown.get()
    }

    /// Clears every layer: Esc.
    pub fn clear(&self) {
        self.hovered.set(None);
        self.pinned.set(None);
        self.focused.set(None);
    }
}

/// A focusable target for one choice of a figure. Its data hook (`data-release`, `data-writer`)
/// is spread onto it by the caller: `<ChoiceButton selection choice {..} data-writer="33">`.
///
/// Touch pointers do not hover: a finger's `pointerenter` would otherwise select and commit in
/// one tap. With `on_commit`, activating the button commits only when its choice was already
/// shown as the press began: a mouse commits on click (hover previewed it), the keyboard on
/// Enter/Space (focus previewed it), and a finger on its second tap (the first one selects,
/// so a touch reader sees the what-if before changing anything).
#[component]
pub fn ChoiceButton<T>(
    /// The selection of the figure this button belongs to.
    selection: Selection<T>,
    /// The choice the button stands for.
    choice: T,
    /// Called to commit the choice; without it, a click only pins the selection.
    #[prop(optional)]
    on_commit: Option<Callback<T>>,
    /// What the button shows.
    children: Children,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    // Whether the choice was already shown when the current press began; `None` when the click
    // came without a pointer press (keyboard activation).
    let shown_at_press = StoredValue::new(None::<bool>);
    let hovering = |e: &ev::PointerEvent| e.pointer_type() != "touch";
    view! {
        <button
            type="button"
            class="fig-choice"
            aria-pressed=move || (selection.shown() == Some(choice)).to_string()
            on:pointerenter=move |e| {
                if hovering(&e) {
                    selection.hovered.set(Some(choice));
                }
            }
            on:pointerleave=move |e| {
                if hovering(&e) {
                    selection.hovered.set(None);
                }
            }
            on:pointerdown=move |_| shown_at_press.set_value(Some(selection.shown() == Some(choice)))
            on:focus=move |_| selection.focused.set(Some(choice))
            on:blur=move |_| {
                selection.focused.set(None);
                selection.pinned.set(None);
            }
            on:click=move |_| {
                let was_shown = shown_at_press
                    .try_update_value(Option::take)
                    .flatten()
                    .unwrap_or_else(|| selection.shown() == Some(choice));
                match on_commit {
                    Some(commit) if was_shown => commit.run(choice),
                    _ => selection.pinned.set(Some(choice)),
                }
            }
        >
            {children()}
        </button>
    }
}
