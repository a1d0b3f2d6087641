import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { useConfig } from '../_utils/ConfigContext';
import { useControllableState } from '../_utils/useControllableState';
import './pagination.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-pagination`;

export interface PaginationProps {
    /** Total number of items. */
    total: number;
    /** Controlled current page, 1-based. */
    currentPage?: number;
    /** @default 1 */
    defaultCurrentPage?: number;
    /** Controlled page size. */
    pageSize?: number;
    /** @default 10 */
    defaultPageSize?: number;
    /** @default [10, 20, 50, 100] */
    pageSizeOpts?: number[];
    /** Show a page size selector. @default false */
    showSizeChanger?: boolean;
    /** Show a "go to page" input. @default false */
    showQuickJumper?: boolean;
    /** Show a total summary, or render it yourself. @default false */
    showTotal?: boolean | ((total: number, range: [number, number]) => React.ReactNode);
    /** Render nothing when there is only one page. @default false */
    hideOnSinglePage?: boolean;
    /** @default 'default' */
    size?: 'small' | 'default';
    /** @default false */
    disabled?: boolean;
    className?: string;
    style?: React.CSSProperties;
    /** Called when the page or the page size changes. */
    onChange?: (currentPage: number, pageSize: number) => void;
    /** Called when the page size changes. */
    onPageSizeChange?: (pageSize: number) => void;
}

/** Page numbers to render, with `'...'` for gaps. Always keeps first, last and two neighbours. */
export function getPageItems(current: number, totalPages: number): Array<number | '...'> {
    if (totalPages <= 7) {
        return Array.from({ length: totalPages }, (_, index) => index + 1);
    }
    const start = Math.max(2, Math.min(current - 2, totalPages - 5));
    const end = Math.min(totalPages - 1, Math.max(current + 2, 6));
    const items: Array<number | '...'> = [1];
    if (start > 2) {
        items.push('...');
    }
    for (let page = start; page <= end; page += 1) {
        items.push(page);
    }
    if (end < totalPages - 1) {
        items.push('...');
    }
    items.push(totalPages);
    return items;
}

export default function Pagination(props: PaginationProps) {
    const {
        total,
        currentPage,
        defaultCurrentPage = 1,
        pageSize,
        defaultPageSize = 10,
        pageSizeOpts = [10, 20, 50, 100],
        showSizeChanger = false,
        showQuickJumper = false,
        showTotal = false,
        hideOnSinglePage = false,
        size = 'default',
        disabled = false,
        className,
        style,
        onChange,
        onPageSizeChange,
    } = props;
    const locale = { total: 'Total {total} items', perPage: '/ page', jumpTo: 'Go to', previous: 'Previous page', next: 'Next page', ...useConfig().locale?.Pagination };
    const [page, setPage] = useControllableState(currentPage, defaultCurrentPage);
    const [perPage, setPerPage] = useControllableState(pageSize, defaultPageSize);
    const totalPages = Math.max(1, Math.ceil(total / perPage));

    if (hideOnSinglePage && totalPages <= 1) {
        return null;
    }

    const goTo = (next: number) => {
        const target = Math.min(totalPages, Math.max(1, next));
        if (target !== page && !disabled) {
            setPage(target);
            onChange?.(target, perPage);
        }
    };

    const changePageSize = (next: number) => {
        setPerPage(next);
        setPage(1);
        onPageSizeChange?.(next);
        onChange?.(1, next);
    };

    const range: [number, number] = [Math.min(total, (page - 1) * perPage + 1), Math.min(total, page * perPage)];
    const totalText = typeof showTotal === 'function' ? showTotal(total, range) : locale.total.replace('{total}', String(total));

    return (
        <nav aria-label="Pagination" className={cls(prefixCls, className, `${prefixCls}-${size}`, { [`${prefixCls}-disabled`]: disabled })} style={style}>
            {showTotal ? <span className={`${prefixCls}-total`}>{totalText}</span> : null}
            <ul className={`${prefixCls}-list`}>
                <li>
                    <button type="button" aria-label={locale.previous} className={`${prefixCls}-prev`} disabled={disabled || page <= 1} onClick={() => goTo(page - 1)} />
                </li>
                {getPageItems(page, totalPages).map((item, index) =>
                    item === '...' ? (
                        <li key={`gap-${index}`} className={`${prefixCls}-ellipsis`} aria-hidden="true">
                            …
                        </li>
                    ) : (
                        <li key={item}>
                            <button
                                type="button"
                                aria-current={item === page ? 'page' : undefined}
                                className={cls(`${prefixCls}-item`, { [`${prefixCls}-item-active`]: item === page })}
                                disabled={disabled}
                                onClick={() => goTo(item)}
                            >
                                {item}
                            </button>
                        </li>
                    ),
                )}
                <li>
                    <button type="button" aria-label={locale.next} className={`${prefixCls}-next`} disabled={disabled || page >= totalPages} onClick={() => goTo(page + 1)} />
                </li>
            </ul>
            {showSizeChanger ? (
                <select className={`${prefixCls}-size-changer`} value={perPage} disabled={disabled} onChange={(event) => changePageSize(Number(event.target.value))}>
                    {pageSizeOpts.map((option) => (
                        <option key={option} value={option}>{`${option} ${locale.perPage}`}</option>
                    ))}
                </select>
            ) : null}
            {showQuickJumper ? (
                <label className={`${prefixCls}-jumper`}>
                    {locale.jumpTo}
                    <input
                        type="number"
                        min={1}
                        max={totalPages}
                        disabled={disabled}
                        onKeyDown={(event) => {
                            if (event.key === 'Enter') {
                                goTo(Number(event.currentTarget.value));
                                event.currentTarget.value = '';
                            }
                        }}
                    />
                </label>
            ) : null}
        </nav>
    );
}
