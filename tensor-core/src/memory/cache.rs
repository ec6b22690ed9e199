//! The cache of large freed buffers: what lets a large new result skip the kernel's page zeroing.
//!
//! A new buffer of many megabytes comes from `mmap` (glibc serves every request above its
//! `mmap` threshold, at most 32 MiB, that way and unmaps it on `free`), and the kernel zeroes each
//! fresh page on its first write: for the 64 MB output of a 1.6e7-element f32 add that is 4-5 ms on
//! the development machine, about a third of the whole operation. Buffers of 1-4 MB fare no
//! better in a network's forward, where results of several sizes are made and dropped in turn:
//! glibc trims the top of its heap whenever more than its trim threshold is free there, and the
//! next result faults its pages in again. MiniLM's forward at batch 32 (results of 1 and 4 MB)
//! spent a quarter of its time in page faults and zeroing (stages summed on one thread: 382 ms
//! with this cache from 4 MiB, 316 ms from 512 KiB, 295 ms with glibc told never to trim or
//! `mmap`). So buffers are cached from 128 KiB (see [`MIN_BYTES`]). (Cached from 128 KiB for issue 37, the 4 MB
//! outputs of `&a + &b` over 1e6 elements once ran at half speed, `add_new_1e6`: 400 against
//! 200 µs, not explained; cached from 512 KiB, the 1 MiB and 4 MiB results of `&a + &b` ran at
//! the speed of a loop collecting a new `Vec`: 0.085-0.10 against 0.080 ms, 0.36 against 0.35 ms;
//! back at 128 KiB on 2026-11-30, `add_new_1e6` took 485 against 470 µs at 512 KiB, within the
//! noise, on today's host.) A buffer
//! taken back from this cache has its pages mapped already, so `&a + &b` in a loop runs at the
//! speed of `add_out` into a preallocated tensor.
//! NumPy and PyTorch leave this to the allocator; a program can also get it by choosing a
//! retaining global allocator such as mimalloc (measured on the development machine before this
//! cache: 8.3-9.1 ms for that add, against 12.7-13.2 ms under glibc).
//!
//! Rules: only buffers of [`MIN_BYTES`] or more are cached; the cache is process-wide (a buffer
//! dropped on one thread serves a result on another) and holds at most the limit set by
//! [`set_buffer_cache_limit`] ([`DEFAULT_LIMIT`] to begin with), dropping its oldest buffers to
//! make room; a request takes the smallest cached buffer of its element type that holds it and
//! wastes at most a quarter of its bytes. A cached buffer keeps its length: a result that its
//! kernel writes in full takes it with its old values (initialised elements of its type) and no
//! zero fill (`take_for_overwrite`); any other request gets it empty. Without the `std` feature
//! nothing is cached.

/// Buffers smaller than this (128 KiB) go straight back to the allocator. (512 KiB before
/// 2026-11-30: the digits CNN's forward called from a program's main thread, whose glibc arena
/// gives freed memory back and maps it again, took 817 µs against 653-667 µs now and 577-597 µs
/// with glibc's trimming turned off, its 184 KiB intermediate results among the buffers that
/// went back; its forward inside rayon's pool took 700-750 µs either way.)
#[cfg(feature = "std")]
pub const MIN_BYTES: usize = 1 << 17;

/// The cache's limit until [`set_buffer_cache_limit`] changes it: 256 MiB.
#[cfg(feature = "std")]
pub const DEFAULT_LIMIT: usize = 1 << 28;

#[cfg(feature = "std")]
mod imp {
    use super::{DEFAULT_LIMIT, MIN_BYTES};
    use crate::element::Element;
    use std::any::Any;
    use std::boxed::Box;
    use std::sync::{Mutex, MutexGuard};
    use std::vec::Vec;

    struct Entry {
        bytes: usize,
        buf: Box<dyn Any + Send>,
    }
    struct Cache {
        limit: usize,
        held: usize,
        entries: Vec<Entry>,
    }
    impl Cache {
        /// Removes the oldest buffers until at most `target` bytes are held, and returns them so
        /// that the caller frees them after releasing the lock.
        fn evict_to(&mut self, target: usize) -> Vec<Entry> {
            let mut evicted = Vec::new();
            while self.held > target {
                let e = self.entries.remove(0);
                self.held -= e.bytes;
                evicted.push(e);
            }
            evicted
        }
    }
    static CACHE: Mutex<Cache> = Mutex::new(Cache { limit: DEFAULT_LIMIT, held: 0, entries: Vec::new() });

    /// The cache, also after a panic elsewhere while it was locked (its state is consistent
    /// between any two statements that touch it).
    fn lock() -> MutexGuard<'static, Cache> {
        CACHE.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An empty vector with room for `n` elements from the cache, when it holds one that fits.
    pub(crate) fn take<T: Element>(n: usize) -> Option<Vec<T>> {
        let mut v = take_filled::<T>(n)?;
        v.clear();
        Some(v)
    }

    /// A cached vector with room for `n` elements, its length as it was freed (its old elements:
    /// initialised values of `T`, since the cache keeps each buffer's length).
    fn take_filled<T: Element>(n: usize) -> Option<Vec<T>> {
        let need = n.checked_mul(core::mem::size_of::<T>())?;
        if need < MIN_BYTES {
            return None;
        }
        let mut c = lock();
        let best = c
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.bytes >= need && e.bytes - need <= need / 4 && e.buf.is::<Vec<T>>())
            .min_by_key(|(_, e)| e.bytes)
            .map(|(i, _)| i)?;
        let e = c.entries.remove(best);
        c.held -= e.bytes;
        drop(c);
        e.buf.downcast::<Vec<T>>().ok().map(|b| *b)
    }

    /// `n` elements from the cache when it holds a buffer that fits: the buffer's old values (up
    /// to `n`; a shorter buffer is completed with `T::ZERO`), never zero-filled in full.
    pub(crate) fn take_for_overwrite<T: Element>(n: usize) -> Option<Vec<T>> {
        let mut v = take_filled::<T>(n)?;
        if v.len() >= n {
            v.truncate(n);
        } else {
            v.resize(n, T::ZERO);
        }
        Some(v)
    }

    pub(crate) fn give<T: Element>(v: &mut Vec<T>) {
        let bytes = v.capacity() * core::mem::size_of::<T>();
        if bytes < MIN_BYTES {
            return;
        }
        let evicted = {
            let mut c = lock();
            if bytes > c.limit {
                return;
            }
            let room = c.limit - bytes;
            let evicted = c.evict_to(room);
            // The buffer keeps its length: its elements stay initialised values of `T`, so that
            // `take_for_overwrite` can hand them out without a zero fill.
            let buf: Box<dyn Any + Send> = Box::new(core::mem::take(v));
            c.entries.push(Entry { bytes, buf });
            c.held += bytes;
            evicted
        };
        // The evicted buffers are freed here, outside the lock.
        drop(evicted);
    }

    pub fn set_limit(bytes: usize) -> usize {
        let (old, evicted) = {
            let mut c = lock();
            (core::mem::replace(&mut c.limit, bytes), c.evict_to(bytes))
        };
        drop(evicted);
        old
    }

    pub fn held() -> usize {
        lock().held
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    use crate::element::Element;
    use alloc::vec::Vec;
    #[inline(always)]
    pub(crate) fn take<T: Element>(_: usize) -> Option<Vec<T>> {
        None
    }
    #[inline(always)]
    pub(crate) fn take_for_overwrite<T: Element>(_: usize) -> Option<Vec<T>> {
        None
    }
    #[inline(always)]
    pub(crate) fn give<T: Element>(_: &mut Vec<T>) {}
    pub fn set_limit(_: usize) -> usize {
        0
    }
    pub fn held() -> usize {
        0
    }
}

pub(crate) use imp::{give, take, take_for_overwrite};

/// Sets how many bytes of freed large buffers (128 KiB or more each) the process keeps for reuse,
/// and returns the previous limit. `0` turns the cache off and frees what it holds; lowering the
/// limit frees the oldest buffers until the rest fits. The default is 256 MiB.
///
/// Why: a new result of many megabytes otherwise gets fresh pages from the operating system,
/// which zeroes them on first write; a cached buffer skips that. On the development machine a
/// 1.6e7-element f32 `&a + &b` into a new tensor takes 12.2-13.3 ms with fresh pages and the
/// time of `add_out` into an existing tensor (about 8 ms) with a cached buffer. The cache is
/// process-wide; a tensor dropped on one thread serves a result on another.
///
/// Without the `std` feature nothing is cached and this returns 0.
///
/// ```
/// # extern crate shaped_core as shaped;
/// let old = shaped::set_buffer_cache_limit(0); // no caching from here on
/// shaped::set_buffer_cache_limit(old);
/// ```
pub fn set_buffer_cache_limit(bytes: usize) -> usize {
    imp::set_limit(bytes)
}

/// How many bytes of freed buffers the cache holds now (see [`set_buffer_cache_limit`]).
///
/// ```
/// # extern crate shaped_core as shaped;
/// assert!(shaped::buffer_cache_bytes() <= 256 << 20);
/// ```
pub fn buffer_cache_bytes() -> usize {
    imp::held()
}
