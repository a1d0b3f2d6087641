import Table from './Table';

export default Table;
export { TableColumn, TableSize, SelectionType, ChangeAction, defaultLocale, normalizeColumns, iterateRows } from './Table';
export type {
    TableProps,
    TableRef,
    ColumnProps,
    ColumnFilterItem,
    FilterDropdownProps,
    RowSelection,
    ExpandableConfig,
    ExpandIconProps,
    TablePaginationConfig,
    TableScrollConfig,
    TableScrollToOptions,
    TableChangeInfo,
    TableRequest,
    TableRequestParams,
    TableRequestResult,
    TableLocale,
    SortOrder,
    SorterState,
    RecordKey,
} from './Table';
