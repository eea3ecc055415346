//! The attempts figure's words: every caption, verdict, readout, caveat and note it shows, each
//! built from what the run read back from the store, never written down as an outcome.

use super::super::{cli_text, still_stalled_until, time_span};
use super::{
    job_key, AttemptsFrame, AttemptsRun, FrameKind, JobHash, Lane, Transition, TransitionOutcome,
    JOB_ID,
};

impl JobHash {
    /// `state=active attempts=1`, with `(nil)` for a missing field.
    pub fn fields(&self) -> String {
        let state = self.state.as_deref().unwrap_or("(nil)");
        let attempts = self
            .attempts
            .map_or_else(|| "(nil)".to_string(), |a| a.to_string());
        format!("state={state} attempts={attempts}")
    }

    /// Where the job sits: `in active until 10000 ms`, `in wait`, or `in neither set`.
    pub fn place(&self) -> String {
        match (self.lease_deadline_ms, self.waiting) {
            (Some(deadline), _) => format!("in active until {deadline} ms"),
            (None, true) => "in wait".to_string(),
            (None, false) => "in neither set".to_string(),
        }
    }
}

impl AttemptsFrame {
    /// `W1 claims`, `W1 stalls past its lease`, `reaper reaps`, …
    pub fn title(&self) -> String {
        let actor = self.actor.map_or("", Lane::name);
        match self.kind {
            FrameKind::Enqueue => format!("job {JOB_ID} enqueued"),
            FrameKind::Claim => format!("{actor} claims"),
            FrameKind::Stall => format!("{actor} stalls"),
            FrameKind::Reap => format!("{actor} runs"),
        }
    }

    /// `t = 0 ms`, or `t = 0 → 13000 ms` for the stall.
    pub fn time_label(&self) -> String {
        time_span(self.started_ms, self.until_ms)
    }

    /// Every reply the frame's commands got, as redis-cli prints each (arrays on several lines),
    /// in order and joined as the commands are (`" · "`); `None` if no command was sent.
    pub fn reply_text(&self) -> Option<String> {
        let last = self.reply.as_ref()?;
        let replies: Vec<String> = self
            .earlier_replies
            .iter()
            .chain([last])
            .map(cli_text)
            .collect();
        Some(replies.join(" · "))
    }
}

impl TransitionOutcome {
    /// `accepted` or `refused`.
    pub fn word(&self) -> &'static str {
        if self.accepted() {
            "accepted"
        } else {
            "refused"
        }
    }

    /// `att 1 ≠ attempts 2`, the sign computed from the two numbers.
    pub fn comparison(&self) -> String {
        let shown = |n: Option<i64>| n.map_or_else(|| "(nil)".to_string(), |n| n.to_string());
        let sign = if self.presented == self.stored {
            "="
        } else {
            "≠"
        };
        format!(
            "att {} {sign} attempts {}",
            shown(self.presented),
            shown(self.stored)
        )
    }

    /// What became of the job: `job 42 stays active` or `job 42 is now completed`.
    pub fn job_fate(&self) -> String {
        let state = self.job_after.state.as_deref().unwrap_or("(nil)");
        if self.job_after.state == self.job_before.state {
            format!("job {JOB_ID} stays {state}")
        } else {
            format!("job {JOB_ID} is now {state}")
        }
    }

    fn clauses(&self) -> Vec<String> {
        let mut clauses = vec![self.comparison()];
        match self.error_text() {
            Some(error) => clauses.push(format!("{} with {error}", self.word())),
            None => clauses.push(self.word().to_string()),
        }
        clauses.push(self.job_fate());
        clauses
    }

    /// The static verdict: `W1 complete (att 1) → att 1 ≠ attempts 2, refused with EMQSTALE …`.
    pub fn verdict(&self) -> String {
        let presented = self
            .presented
            .map_or_else(|| "(nil)".to_string(), |n| n.to_string());
        format!(
            "{} (att {presented}) → {}",
            self.transition.label(),
            self.clauses().join(", ")
        )
    }

    /// The live readout's sentence.
    pub fn readout(&self) -> String {
        let worker = self.transition.worker().name();
        let verb = self.transition.verb();
        let mut sentence = format!("{worker} calls @{verb}: {}.", self.clauses().join(", "));
        if !self.accepted() && self.stored > self.presented {
            sentence.push_str(&format!(
                " The re-claim bumped attempts past {worker}'s copy, so its lapsed grant is fenced out."
            ));
        }
        sentence
    }

    /// What the refusal cannot guard: the side effects the lapsed worker caused before this
    /// call. `None` when the fence let the transition through.
    pub fn caveat(&self) -> Option<String> {
        if self.accepted() {
            return None;
        }
        let worker = self.transition.worker().name();
        let payload = self.job_before.payload.as_deref().unwrap_or("its job");
        Some(format!(
            "What the refusal guards is job {JOB_ID}'s state in Redis, not what {worker} did \
             before this call: had it gone on with \"{payload}\" after its lease lapsed and sent \
             the email, the email would stay sent. Only a resource that checks the token itself can \
             refuse a lapsed worker's side effects, and only once a newer grant's token has \
             reached it:"
        ))
    }

    /// What the refusal cannot guard, as the readout says it, pointing to the whole of it
    /// ([`Self::caveat`], under the figure's static verdicts). `None` whenever [`Self::caveat`] is.
    pub fn readout_caveat(&self) -> Option<String> {
        self.caveat()?;
        let worker = self.transition.worker().name();
        Some(format!(
            "What the refusal guards is job {JOB_ID}'s state in Redis, not what {worker} did \
             before this call. More under the static verdicts."
        ))
    }

    /// The readout's evidence: the call and its reply, and the job afterwards.
    pub fn evidence(&self) -> Vec<String> {
        vec![
            format!(
                "{}> {} → {}",
                self.transition.worker().name(),
                self.command,
                cli_text(&self.reply)
            ),
            format!(
                "{} now: {} · {}",
                job_key(),
                self.job_after.fields(),
                self.job_after.place()
            ),
        ]
    }
}

impl AttemptsRun {
    /// What `lane` says beside another lane's `frame` while its worker is stalled: `still
    /// stalled, until t = 13000 ms` for W1 beside the reaper's pass and W2's re-claim.
    pub fn still_stalled(&self, lane: Lane, frame: &AttemptsFrame) -> Option<String> {
        let stall = self.frame(lane, FrameKind::Stall)?;
        let inside = frame.actor != Some(lane)
            && frame.number > stall.number
            && frame.clock_ms < stall.until_ms;
        inside.then(|| still_stalled_until(stall.until_ms))
    }

    /// The readout with nothing selected: the setup and what to try, read from the run.
    pub fn idle_readout(&self) -> String {
        let stalled = if self.w1_stalled_past_lease() {
            "past"
        } else {
            "within"
        };
        let reaped = if self.reaped_ids().iter().any(|id| id == JOB_ID) {
            format!("the reaper moved job {JOB_ID} back to wait")
        } else {
            format!("the reaper left job {JOB_ID} alone")
        };
        let shown = |n: Option<i64>| n.map_or_else(|| "(nil)".to_string(), |n| n.to_string());
        let choices: Vec<String> = Transition::ALL
            .into_iter()
            .map(|t| format!("{}'s {}", t.worker().name(), t.verb()))
            .collect();
        format!(
            "W1 claimed with att {} and stalled {stalled} its lease; {reaped} and W2 re-claimed it with att {}. \
             From there, at t = {} ms, {} are each a separate what-if: hover one to run it against the fence.",
            shown(self.w1_att),
            shown(self.w2_att),
            self.reclaimed.now_ms(),
            list_in_words(&choices),
        )
    }

    /// The figure's caption, from the run: what the reaper and W2's claim did.
    pub fn caption(&self) -> String {
        let reaped = if self.reaped_ids().iter().any(|id| id == JOB_ID) {
            "W1's lease is reaped"
        } else {
            "the reaper leaves W1's lease alone"
        };
        let reclaimed = if self.w2_att.is_some() {
            "W2 re-claims the job"
        } else {
            "W2 finds nothing to claim"
        };
        format!(
            "The attempts fence — {reaped} and {reclaimed}. Hover a complete or the retry to light \
             its path and read whether the fence lets it through."
        )
    }

    /// What this page's scripts add to the quoted lines, shown by a what-if: W1's complete had W1
    /// resumed right after the reaper's pass, before W2's claim, when `attempts` still equals
    /// W1's `att` (in the figure W1 is still stalled then).
    pub fn lease_check_note(&self) -> String {
        let o = &self.lapsed_before_reclaim;
        let token_alone = if o.presented == o.stored {
            " — the token alone would let W1 through —"
        } else {
            ","
        };
        format!(
            "Beyond the quoted lines, this page's @complete and @retry also refuse a worker whose job \
             is no longer in the active set. Had W1 resumed right after the reaper's pass, before \
             W2's claim, {}{token_alone} and its @complete would reply {}: job {JOB_ID} would stay \
             {}.",
            o.comparison(),
            cli_text(&o.reply),
            o.job_after.state.as_deref().unwrap_or("(nil)"),
        )
    }
}

/// `a, b and c`.
fn list_in_words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
