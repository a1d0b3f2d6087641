import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { KeyCode } from '../_utils/keyCodes';
import { useControllableState } from '../_utils/useControllableState';
import { useId } from '../_utils/useId';
import TabPane from './TabPane';
import type { TabPaneProps } from './TabPane';
import './tabs.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-tabs`;

export interface TabItem {
    /** Unique key of the tab. */
    itemKey: string;
    /** Label in the tab bar. */
    tab: React.ReactNode;
    /** Panel content. */
    content?: React.ReactNode;
    /** Icon before the label. */
    icon?: React.ReactNode;
    disabled?: boolean;
    /** Show a close button (only for `type="card"`). */
    closable?: boolean;
}

export interface TabsProps {
    /** Tabs as data. Ignored when `<Tabs.TabPane>` children are present. */
    items?: TabItem[];
    /** Controlled active tab. */
    activeKey?: string;
    /** Initially active tab. Defaults to the first enabled tab. */
    defaultActiveKey?: string;
    /** @default 'line' */
    type?: 'line' | 'card' | 'button';
    /** @default 'default' */
    size?: 'small' | 'default' | 'large';
    /** @default 'top' */
    tabPosition?: 'top' | 'left';
    /** Keep inactive panels mounted (hidden). @default true */
    keepAlive?: boolean;
    /** Mount a panel only when it is first shown. @default false */
    lazyRender?: boolean;
    /** Content at the end of the tab bar. */
    tabBarExtraContent?: React.ReactNode;
    /** Called with the key of the newly active tab. */
    onChange?: (activeKey: string) => void;
    /** Called when a closable tab's close button is clicked. */
    onTabClose?: (itemKey: string) => void;
    className?: string;
    style?: React.CSSProperties;
    children?: React.ReactNode;
}

function collectItems(children: React.ReactNode, items: TabItem[] | undefined): TabItem[] {
    const fromChildren: TabItem[] = [];
    React.Children.forEach(children, (child) => {
        if (React.isValidElement<TabPaneProps>(child) && child.type === TabPane) {
            const { itemKey, tab, icon, disabled, closable, children: content } = child.props;
            fromChildren.push({ itemKey, tab, icon, disabled, closable, content });
        }
    });
    return fromChildren.length > 0 ? fromChildren : items ?? [];
}

export default function Tabs(props: TabsProps) {
    const {
        items,
        activeKey,
        defaultActiveKey,
        type = 'line',
        size = 'default',
        tabPosition = 'top',
        keepAlive = true,
        lazyRender = false,
        tabBarExtraContent,
        onChange,
        onTabClose,
        className,
        style,
        children,
    } = props;
    const baseId = useId(prefixCls);
    const tabs = collectItems(children, items);
    const firstEnabled = tabs.find((item) => !item.disabled)?.itemKey ?? '';
    const [current, setCurrent] = useControllableState(activeKey, defaultActiveKey ?? firstEnabled, onChange);
    const rendered = React.useRef(new Set<string>([current]));
    rendered.current.add(current);

    const enabledKeys = tabs.filter((item) => !item.disabled).map((item) => item.itemKey);

    const handleKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
        const horizontal = tabPosition === 'top';
        const prevKey = horizontal ? KeyCode.LEFT : KeyCode.UP;
        const nextKey = horizontal ? KeyCode.RIGHT : KeyCode.DOWN;
        const index = enabledKeys.indexOf(current);
        let target: string | undefined;
        if (event.keyCode === prevKey) {
            target = enabledKeys[(index - 1 + enabledKeys.length) % enabledKeys.length];
        } else if (event.keyCode === nextKey) {
            target = enabledKeys[(index + 1) % enabledKeys.length];
        } else if (event.keyCode === KeyCode.HOME) {
            target = enabledKeys[0];
        } else if (event.keyCode === KeyCode.END) {
            target = enabledKeys[enabledKeys.length - 1];
        }
        if (target !== undefined) {
            event.preventDefault();
            setCurrent(target);
            document.getElementById(`${baseId}-tab-${target}`)?.focus();
        }
    };

    return (
        <div className={cls(prefixCls, className, `${prefixCls}-${type}`, `${prefixCls}-${size}`, `${prefixCls}-${tabPosition}`)} style={style}>
            <div className={`${prefixCls}-bar`}>
                <div role="tablist" aria-orientation={tabPosition === 'top' ? 'horizontal' : 'vertical'} className={`${prefixCls}-list`} onKeyDown={handleKeyDown}>
                    {tabs.map((item) => {
                        const active = item.itemKey === current;
                        return (
                            <div
                                key={item.itemKey}
                                id={`${baseId}-tab-${item.itemKey}`}
                                role="tab"
                                aria-selected={active}
                                aria-controls={`${baseId}-panel-${item.itemKey}`}
                                aria-disabled={item.disabled || undefined}
                                tabIndex={active ? 0 : -1}
                                className={cls(`${prefixCls}-tab`, {
                                    [`${prefixCls}-tab-active`]: active,
                                    [`${prefixCls}-tab-disabled`]: item.disabled,
                                })}
                                onClick={() => !item.disabled && setCurrent(item.itemKey)}
                            >
                                {item.icon ? <span className={`${prefixCls}-tab-icon`}>{item.icon}</span> : null}
                                {item.tab}
                                {type === 'card' && item.closable ? (
                                    <button
                                        type="button"
                                        tabIndex={-1}
                                        aria-label="Close tab"
                                        className={`${prefixCls}-tab-close`}
                                        onClick={(event) => {
                                            event.stopPropagation();
                                            onTabClose?.(item.itemKey);
                                        }}
                                    />
                                ) : null}
                            </div>
                        );
                    })}
                </div>
                {tabBarExtraContent ? <div className={`${prefixCls}-extra`}>{tabBarExtraContent}</div> : null}
            </div>
            <div className={`${prefixCls}-content`}>
                {tabs.map((item) => {
                    const active = item.itemKey === current;
                    const shouldRender = active || (keepAlive && (!lazyRender || rendered.current.has(item.itemKey)));
                    if (!shouldRender) {
                        return null;
                    }
                    return (
                        <div
                            key={item.itemKey}
                            id={`${baseId}-panel-${item.itemKey}`}
                            role="tabpanel"
                            aria-labelledby={`${baseId}-tab-${item.itemKey}`}
                            hidden={!active}
                            className={`${prefixCls}-panel`}
                        >
                            {item.content}
                        </div>
                    );
                })}
            </div>
        </div>
    );
}
