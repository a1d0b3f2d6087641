import { BASE_CLASS_PREFIX } from '../_utils/constants';

export const cssClasses = {
    PREFIX: `${BASE_CLASS_PREFIX}-table`,
} as const;

export const strings = {
    DEFAULT_ROW_KEY: 'key',
    DEFAULT_CHILDREN_COLUMN_NAME: 'children',
    SELECTION_COLUMN_KEY: '__selection__',
    EXPAND_COLUMN_KEY: '__expand__',
    SIZES: ['small', 'middle', 'default'],
    SORT_DIRECTIONS: ['ascend', 'descend'],
    PAGINATION_POSITIONS: ['topLeft', 'topRight', 'bottomLeft', 'bottomRight', 'both'],
} as const;

export const numbers = {
    DEFAULT_PAGE_SIZE: 10,
    DEFAULT_INDENT_SIZE: 16,
    SELECTION_COLUMN_WIDTH: 48,
    EXPAND_COLUMN_WIDTH: 48,
    MIN_COLUMN_WIDTH: 48,
    ROW_HEIGHT_SMALL: 40,
    ROW_HEIGHT_MIDDLE: 48,
    ROW_HEIGHT_DEFAULT: 56,
    DEFAULT_OVERSCAN: 6,
    LOADING_DELAY: 120,
    SCROLL_POSITION_DEBOUNCE: 16,
    SLOW_REQUEST_THRESHOLD: 3000,
} as const;
