import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 1000;

/** A page of an admin list: 1-based `page`, `perPage` rows, starting at row `offset`. */
export interface PageWindow {
  readonly page: number;
  readonly perPage: number;
  readonly offset: number;
}

/**
 * The admin lists' paging, as the reference: page 1 and 50 a page by default; at most 1000 a page here
 * (the reference sets no ceiling, which lets one request read a whole table). A page below 1, or one so
 * far out that its offset is no longer an exact integer, is `Bad Pagination Parameters`.
 */
export function pageWindow(input: {
  page?: number | undefined;
  perPage?: number | undefined;
}): Result<PageWindow> {
  const page = input.page ?? 1;
  const requested = input.perPage ?? DEFAULT_PER_PAGE;
  if (!Number.isInteger(page) || !Number.isInteger(requested) || page < 1 || requested < 1) {
    return err(failures.paginationInvalid());
  }
  const perPage = Math.min(requested, MAX_PER_PAGE);
  const offset = (page - 1) * perPage;
  if (!Number.isSafeInteger(offset)) return err(failures.paginationInvalid());
  return ok({ page, perPage, offset });
}
