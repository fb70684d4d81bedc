/**
 * Go's `sort.SliceStable` (insertion sort on blocks of 20, then SymMerge), reproduced step by
 * step. Strategic merge patch sorts with a comparator that is not a strict weak order (an item
 * missing from the order list is "less" than everything), so the exact algorithm decides the
 * result and JavaScript's sort would order some lists differently from the API server.
 */

type Less = (i: number, j: number) => boolean;

export function sliceStable<T>(items: T[], less: (a: T, b: T) => boolean): void {
  const lessAt: Less = (i, j) => less(items[i], items[j]);
  const swap = (i: number, j: number) => {
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  };
  const n = items.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(lessAt, swap, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(lessAt, swap, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(lessAt, swap, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(lessAt, swap, a, m, n);
    blockSize *= 2;
  }
}

function insertionSort(less: Less, swap: (i: number, j: number) => void, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(j, j - 1); j--) swap(j, j - 1);
  }
}

function symMerge(less: Less, swap: (i: number, j: number) => void, a: number, m: number, b: number): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (less(h, a)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) swap(k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!less(m, h)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) swap(k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!less(p - c, c)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(swap, start, m, end);
  if (a < start && start < mid) symMerge(less, swap, a, start, mid);
  if (mid < end && end < b) symMerge(less, swap, mid, end, b);
}

function rotate(swap: (i: number, j: number) => void, a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(swap, m - i, m, j);
      i -= j;
    } else {
      swapRange(swap, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(swap, m - i, m, i);
}

function swapRange(swap: (i: number, j: number) => void, a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) swap(a + i, b + i);
}
