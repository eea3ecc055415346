//! Which choice a figure is showing, and the button that selects one. Hover, keyboard focus and a
//! tap each select; pointer leave (after a short grace), blur, Esc and a tap elsewhere clear what
//! they set. One
//! [`Selection`] per figure, owned by the figure; buttons get a copy of its handle. A button may
//! also commit its choice (figure 2): see [`ChoiceButton`]'s `on_commit`.

use leptos::attr::custom::custom_attribute;
use leptos::ev;
use leptos::prelude::*;
use lockdive_contract::hooks::{CHOICE, COMMITS};
use wasm_bindgen::JsCast;

use gloo_timers::callback::Timeout;

use lockdive_contract::choice_layers::{Activation, ChoiceLayers, PointerKind, LEAVE_GRACE_MS};

/// A figure's selection: the [`ChoiceLayers`] rules held in a signal, and the choice they show.
#[derive(Debug)]
pub struct Selection<T: Send + Sync + 'static> {
    layers: RwSignal<ChoiceLayers<T>>,
    shown: Memo<Option<T>>,
    /// A hovering pointer's leave, waiting out [`LEAVE_GRACE_MS`]; replacing or disposing it
    /// cancels it.
    pending_leave: StoredValue<Option<Timeout>, LocalStorage>,
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
        let layers = RwSignal::new(ChoiceLayers::default());
        let shown = Memo::new(move |_| layers.with(ChoiceLayers::shown));
        let selection = Selection {
            layers,
            shown,
            pending_leave: StoredValue::new_local(None),
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
                layers.update(ChoiceLayers::tap_elsewhere);
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
        self.pending_leave.set_value(None);
        self.layers.update(ChoiceLayers::clear);
    }

    /// The pointer entered a choice: a leave still waiting out its grace is cancelled.
    fn pointer_enter(&self, kind: PointerKind, choice: T) {
        self.pending_leave.set_value(None);
        self.layers.update(|l| l.pointer_enter(kind, choice));
    }

    /// A hovering pointer left a choice: its hover clears once [`LEAVE_GRACE_MS`] has passed
    /// without it entering another choice. The fired timer stays stored until the next enter or
    /// leave replaces it: dropping it inside its own callback would free the running closure.
    fn pointer_leave(&self, kind: PointerKind) {
        if kind != PointerKind::Hovering {
            return;
        }
        let layers = self.layers;
        let clear = Timeout::new(LEAVE_GRACE_MS, move || {
            layers.try_update(|l| l.pointer_leave(PointerKind::Hovering));
        });
        self.pending_leave.set_value(Some(clear));
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
    let kind = |e: &ev::PointerEvent| PointerKind::from_pointer_type(&e.pointer_type());
    let layers = selection.layers;
    view! {
        <button
            type="button"
            class=CHOICE
            aria-pressed=move || (selection.shown() == Some(choice)).to_string()
            on:pointerenter=move |e| selection.pointer_enter(kind(&e), choice)
            on:pointerleave=move |e| selection.pointer_leave(kind(&e))
            on:pointerdown=move |_| shown_at_press.set_value(Some(selection.shown() == Some(choice)))
            on:focus=move |_| layers.update(|l| l.focus(choice))
            on:blur=move |_| layers.update(ChoiceLayers::blur)
            on:click=move |_| {
                let at_press = shown_at_press.try_update_value(Option::take).flatten();
                let activation = layers
                    .try_update(|l| l.activate(choice, at_press, on_commit.is_some()))
                    .unwrap_or(Activation::Pin);
                if let (Activation::Commit, Some(commit)) = (activation, on_commit) {
                    commit.run(choice);
                }
            }
            {..custom_attribute(COMMITS, on_commit.is_some().then_some(""))}
        >
            {children()}
        </button>
    }
}
