// The page's face of the worker's ground floor (worker/base/): what src/ may read of it.
export * from '../base/account.ts';
