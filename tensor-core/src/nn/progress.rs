//! A progress bar for training loops (feature `progress`, through
//! [indicatif](https://docs.rs/indicatif)): the steps done out of the total, their rate, the time
//! left and the last loss, drawn on stderr when it is a terminal (and nowhere otherwise, so logs
//! and CI stay clean). Off by default; PyTorch users know it as `tqdm`.
//!
//! [`DataLoader::iter`](crate::nn::data::DataLoader::iter)'s batches are an `ExactSizeIterator`, so
//! indicatif's own `ProgressIterator::progress()` works on them too.
use alloc::format;
use alloc::string::String;

/// A bar over `total` steps (PyTorch users' `tqdm(range(total))`), showing the last loss that
/// [`step`](Self::step) was given.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::nn::Progress;
/// let bar = Progress::new(100, "epoch 1");
/// for i in 0..100 {
///     let loss = 1.0 / (1.0 + i as f64); // a training step's loss
///     bar.step(loss);
/// }
/// bar.finish();
/// assert_eq!(bar.position(), 100);
/// ```
#[derive(Clone, Debug)]
pub struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar of `total` steps labelled `label`, drawn on stderr when it is a terminal (hidden
    /// otherwise), as `epoch 1 [=====>    ] 42/100 (12.3 it/s, 5s left) loss 0.3141`.
    pub fn new(total: u64, label: &str) -> Self {
        let bar = indicatif::ProgressBar::new(total);
        let style =
            indicatif::ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} ({per_sec}, {eta} left) {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(String::from(label));
        Progress { bar }
    }

    /// One step done, whose loss was `loss` (shown as `loss 0.3141`).
    pub fn step(&self, loss: f64) {
        self.bar.set_message(format!("loss {loss:.4}"));
        self.bar.inc(1);
    }

    /// One step done, with a message of the caller's instead of the loss (accuracy, the
    /// learning rate, ...).
    pub fn step_with(&self, message: &str) {
        self.bar.set_message(String::from(message));
        self.bar.inc(1);
    }

    /// The steps done so far.
    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Ends the bar, leaving its last state on the terminal.
    pub fn finish(&self) {
        self.bar.finish();
    }

    /// The indicatif bar, for what this wrapper does not offer (styles, multi-bars, printing
    /// above the bar with `println`).
    pub fn bar(&self) -> &indicatif::ProgressBar {
        &self.bar
    }
}
