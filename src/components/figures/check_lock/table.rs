//! The catalogue's verdicts as the build computed them — `lockcheck::check` for every catalogue
//! lock under the default bound, natively, when the page is prerendered — as one table, a row per
//! lock and a column per property (`[data-static-verdicts]`). Only the build renders it: it sits
//! outside the figure's lab slot, so the lab never recomputes it, and the figure reads in full
//! without wasm.

#[cfg(not(target_arch = "wasm32"))]
use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use lockdive_contract::hooks::STATIC_VERDICTS;

#[cfg(not(target_arch = "wasm32"))]
use super::verdicts::mark;
#[cfg(not(target_arch = "wasm32"))]
use crate::scenarios::lockcheck::{
    catalogue, check, Bound, CheckReport, Property, SpecError,
};

#[cfg(not(target_arch = "wasm32"))]
/// Every catalogue lock checked under the default bound, in catalogue order: its id, name and
/// report (or why it could not be checked).
pub fn catalogue_reports() -> Vec<(String, String, Result<CheckReport, SpecError>)> {
    catalogue::all()
        .into_iter()
        .map(|spec| {
            let report = check(&spec, Bound::default());
            (spec.id, spec.name, report)
        })
        .collect()
}

#[cfg(not(target_arch = "wasm32"))]
/// A property's column heading: its line, shortened to what fits a column.
pub fn column(property: Property) -> &'static str {
    match property {
        Property::NeverDeletesAnothers => "release spares others' locks",
        Property::NeverExtendsAnothers => "extend spares others' locks",
        Property::ExclusionWhileLeasesHold => "one holder while leases run",
        Property::ExclusionAcrossStall => "one holder across a stall",
        Property::FencedWrites => "resource refuses a stale write",
    }
}

/// The table, `div[data-static-verdicts]`. Rendered by the build only: the page's two wasm modules
/// never render `App` (the lab mounts the figure's live part alone), and a wasm test that renders it
/// in a debug build gets the figure without the table rather than minutes of exploring.
#[cfg(target_arch = "wasm32")]
#[component]
pub fn StaticCheckTable() -> impl IntoView {}

/// The table, `div[data-static-verdicts]`, computed as the build renders the page.
#[cfg(not(target_arch = "wasm32"))]
#[component]
pub fn StaticCheckTable() -> impl IntoView {
    let rows = catalogue_reports()
        .into_iter()
        .map(|(id, name, report)| {
            let cells = match report {
                Ok(report) => Property::ALL
                    .into_iter()
                    .map(|property| {
                        let verdict = report.verdict(property);
                        let mark = mark(verdict);
                        // A property that holds only because the lock lacks the operation it
                        // judges ("the lock has no extend") says so, so the cell does not read as
                        // a checked extend.
                        let vacuous = report
                            .property(property)
                            .holds_only_because()
                            .map(str::to_string);
                        view! {
                            <td data-verdict=verdict.hook() data-tone=mark.tone() data-column=property.hook()>
                                <span class="fig-mark">
                                    <span aria-hidden="true">{mark.icon()}</span>
                                    " "
                                    {mark.word.clone()}
                                </span>
                                {vacuous.map(|note| view! { <span class="ck-cell-note">{note}</span> })}
                            </td>
                        }
                    })
                    .collect_view()
                    .into_any(),
                Err(error) => view! {
                    <td colspan="5" data-tone="bad">{format!("not checked: {error}")}</td>
                }
                .into_any(),
            };
            let hook = id.clone();
            view! {
                <tr data-static-lock=hook>
                    <th scope="row">
                        {name}
                        " "
                        <code>{id}</code>
                    </th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="fig-verdicts ck-table" {..custom_attribute(STATIC_VERDICTS, true)}>
            <p class="fig-verdicts-title" id="ck-table-title">"Static verdicts, computed when the page was built"</p>
            <div class="ck-table-scroll" tabindex="0" role="group" aria-labelledby="ck-table-title">
                <table>
                    <thead>
                        <tr>
                            <th scope="col">"lock"</th>
                            {Property::ALL
                                .into_iter()
                                .map(|p| view! { <th scope="col" title=p.label()>{column(p)}</th> })
                                .collect_view()}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }
}
