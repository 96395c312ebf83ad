//! Typed indices: [`index_type!`](crate::index_type) defines a `u32` newtype for one kind of id
//! (a formula node, a context, a proposition of one model), and [`IdVec`] is a vector indexed by
//! one such type. Two ids of different kinds cannot be mixed up (passing a context where a
//! formula node is expected is a compile error) and a table indexed by ids needs no
//! `[id as usize]` casts.
//!
//! Zero cost: the newtype is `#[repr(transparent)]` over `u32`, every method is an `#[inline]`
//! conversion, and [`IdVec`] is a `Vec<T>` with the same bounds checks; `--release` builds the
//! same instructions as with the `u32` aliases it replaced (measured with callgrind, see the
//! commit messages). [`Idx::new`] checks that a `usize` fits in `u32` in debug builds only, as
//! the `as u32` casts it replaces did not check at all.
//!
//! Written here rather than taken from a crate (`index_vec`, `typed-index-collections`): the
//! whole of it is about a hundred lines, and a dependency for that would bring more API, more
//! compile time and one more crate to audit than the code it saves.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense index type made by [`index_type!`](crate::index_type).
pub trait Idx: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// The id of position `i` (`i` must fit in `u32`).
    fn new(i: usize) -> Self;
    /// The position this id names.
    fn index(self) -> usize;
}

/// Defines `pub struct $name(u32)`: a `Copy`, ordered, hashable index with `new(usize)`,
/// `index() -> usize`, `from_u32`, `as_u32` and [`Idx`]. `Debug` and `Display` print the bare
/// number, as the `u32` alias it replaces did.
#[macro_export]
#[doc(hidden)]
macro_rules! index_type {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[repr(transparent)]
        $vis struct $name(u32);

        #[allow(dead_code)]
        impl $name {
            /// The id of position `i` (`i` must fit in `u32`).
            #[inline]
            $vis const fn new(i: usize) -> Self {
                debug_assert!(i <= u32::MAX as usize);
                Self(i as u32)
            }
            /// The position this id names.
            #[inline]
            $vis const fn index(self) -> usize {
                self.0 as usize
            }
            /// The id with this raw number.
            #[inline]
            $vis const fn from_u32(i: u32) -> Self {
                Self(i)
            }
            /// The raw number.
            #[inline]
            $vis const fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl $crate::ir::id::Idx for $name {
            #[inline]
            fn new(i: usize) -> Self {
                Self::new(i)
            }
            #[inline]
            fn index(self) -> usize {
                self.index()
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Debug::fmt(&self.0, f)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

/// A vector indexed by the id type `I`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IdVec<I, T> {
    raw: Vec<T>,
    _id: PhantomData<fn(I) -> I>,
}

impl<I, T> Default for IdVec<I, T> {
    fn default() -> Self {
        IdVec { raw: Vec::new(), _id: PhantomData }
    }
}

impl<I: Idx, T: fmt::Debug> fmt::Debug for IdVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.raw.fmt(f)
    }
}

#[allow(dead_code)]
impl<I: Idx, T> IdVec<I, T> {
    /// An empty vector.
    pub fn new() -> Self {
        Self::default()
    }
    /// The vector whose element `I::new(i)` is `raw[i]`.
    pub fn from_raw(raw: Vec<T>) -> Self {
        IdVec { raw, _id: PhantomData }
    }
    /// `n` copies of `value`.
    pub fn from_elem(value: T, n: usize) -> Self
    where
        T: Clone,
    {
        Self::from_raw(vec![value; n])
    }
    /// Appends `value` and returns its id.
    #[inline]
    pub fn push(&mut self, value: T) -> I {
        let id = I::new(self.raw.len());
        self.raw.push(value);
        id
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.raw.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
    /// The element of `id`, if there is one.
    #[inline]
    pub fn get(&self, id: I) -> Option<&T> {
        self.raw.get(id.index())
    }
    /// The id the next [`IdVec::push`] returns.
    #[inline]
    pub fn next_id(&self) -> I {
        I::new(self.raw.len())
    }
    /// The elements in id order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }
    /// The elements in id order, mutably.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }
    /// The ids with their elements, in id order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }
    /// The ids, in order.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + use<I, T> {
        (0..self.raw.len()).map(I::new)
    }
    /// The elements as a slice indexed by `usize`.
    pub fn raw(&self) -> &[T] {
        &self.raw
    }
    /// The elements as a mutable slice indexed by `usize` (for `split_at_mut`).
    pub fn raw_mut(&mut self) -> &mut [T] {
        &mut self.raw
    }
    /// The underlying vector.
    pub fn into_raw(self) -> Vec<T> {
        self.raw
    }
}

impl<I: Idx, T> Index<I> for IdVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, id: I) -> &T {
        &self.raw[id.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IdVec<I, T> {
    #[inline]
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.raw[id.index()]
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a IdVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

impl<I: Idx, T> FromIterator<T> for IdVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Self::from_raw(iter.into_iter().collect())
    }
}

crate::index_type! {
    /// An atomic proposition of one model: an index into the proposition table of the flat
    /// model's Kripke structure, of the procedure modules' RKS or of the symbolic model
    /// (`props`, `prop_names`, `atoms`), and the atom type of the specs checked on it.
    pub struct PropId;
}

#[cfg(test)]
mod tests {
    use super::IdVec;

    crate::index_type! {
        /// A test id.
        struct TestId;
    }
    crate::index_type! {
        /// Another test id.
        struct OtherId;
    }

    #[test]
    fn push_returns_the_index_and_indexing_uses_it() {
        let mut v: IdVec<TestId, &str> = IdVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!((a.index(), b.index()), (0, 1));
        assert_eq!(v[b], "b");
        v[a] = "z";
        assert_eq!(v.iter_enumerated().map(|(i, s)| (i.as_u32(), *s)).collect::<Vec<_>>(), vec![(0, "z"), (1, "b")]);
        assert_eq!(v.next_id(), TestId::from_u32(2));
        assert_eq!(format!("{:?} {}", b, b), "1 1");
        assert_eq!(OtherId::new(3).index(), 3);
    }

    #[test]
    fn the_newtype_is_a_u32() {
        assert_eq!(std::mem::size_of::<TestId>(), 4);
        assert_eq!(std::mem::size_of::<Option<Vec<TestId>>>(), std::mem::size_of::<Vec<u32>>());
    }
}
