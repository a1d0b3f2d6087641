export { default, getPageItems } from './Pagination';
export type { PaginationProps } from './Pagination';
