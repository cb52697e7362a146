//! What a form control holds, read from its event: the one place the components cast an event's
//! target. A value that does not parse reads as the type's default (a slider's position 0), never a
//! panic.

use std::str::FromStr;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// An `<input>`'s value as a number (a slider's position, a typed count).
pub fn input_value<T: FromStr + Default>(e: &impl TargetCast) -> T {
    e.target_unchecked_into::<HtmlInputElement>()
        .value()
        .parse()
        .unwrap_or_default()
}

/// The chosen `<option>` of a `<select>`.
pub fn select_value(e: &impl TargetCast) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

/// Whether a checkbox is ticked.
pub fn checked(e: &impl TargetCast) -> bool {
    e.target_unchecked_into::<HtmlInputElement>().checked()
}

/// A `<textarea>`'s text.
pub fn text_value(e: &impl TargetCast) -> String {
    e.target_unchecked_into::<HtmlTextAreaElement>().value()
}
