import React from 'react';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX, DEFAULT_Z_INDEX } from '../_utils/constants';
import { Portal } from '../_utils/Portal';
import { useControllableState } from '../_utils/useControllableState';
import { useId } from '../_utils/useId';
import { computePosition } from './position';
import type { Placement } from './position';
import './tooltip.scss';

const prefixCls = `${BASE_CLASS_PREFIX}-tooltip`;

export type TooltipTrigger = 'hover' | 'focus' | 'click' | 'custom';

export interface TooltipProps {
    /** Content of the tooltip. Nothing is rendered when it is empty. */
    content: React.ReactNode;
    /**
     * Preferred side. Flips automatically when there is not enough room.
     * @default 'top'
     */
    position?: Placement;
    /**
     * What opens the tooltip. `custom` leaves it entirely to `visible`.
     * @default 'hover'
     */
    trigger?: TooltipTrigger;
    /** Controlled visibility. */
    visible?: boolean;
    /** @default false */
    defaultVisible?: boolean;
    /** Called when the tooltip wants to open or close. */
    onVisibleChange?: (visible: boolean) => void;
    /** @default 50 */
    mouseEnterDelay?: number;
    /** @default 100 */
    mouseLeaveDelay?: number;
    /** @default true */
    showArrow?: boolean;
    /** Gap between trigger and tooltip, in pixels. @default 8 */
    spacing?: number;
    /** @default 1060 */
    zIndex?: number;
    getPopupContainer?: () => HTMLElement;
    className?: string;
    style?: React.CSSProperties;
    /** A single element that accepts a ref and mouse/focus handlers. */
    children: React.ReactElement;
}

export default function Tooltip(props: TooltipProps) {
    const {
        content,
        position = 'top',
        trigger = 'hover',
        visible,
        defaultVisible = false,
        onVisibleChange,
        mouseEnterDelay = 50,
        mouseLeaveDelay = 100,
        showArrow = true,
        spacing = 8,
        zIndex = DEFAULT_Z_INDEX.tooltip,
        getPopupContainer,
        className,
        style,
        children,
    } = props;
    const tooltipId = useId(prefixCls);
    const [open, setOpen] = useControllableState(visible, defaultVisible, onVisibleChange);
    const triggerRef = React.useRef<HTMLElement | null>(null);
    const popupRef = React.useRef<HTMLDivElement>(null);
    const timer = React.useRef<ReturnType<typeof setTimeout>>();
    const [coords, setCoords] = React.useState<{ top: number; left: number; placement: Placement } | null>(null);

    const schedule = (next: boolean, delay: number) => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setOpen(next), delay);
    };

    React.useEffect(() => () => clearTimeout(timer.current), []);

    React.useLayoutEffect(() => {
        if (!open || !triggerRef.current || !popupRef.current) {
            return;
        }
        setCoords(computePosition(triggerRef.current.getBoundingClientRect(), popupRef.current.getBoundingClientRect(), position, spacing));
    }, [open, position, spacing, content]);

    React.useEffect(() => {
        if (!open) {
            return undefined;
        }
        const onKeyDown = (event: KeyboardEvent) => {
            if (event.key === 'Escape') {
                setOpen(false);
            }
        };
        document.addEventListener('keydown', onKeyDown);
        return () => document.removeEventListener('keydown', onKeyDown);
    }, [open, setOpen]);

    const child = React.Children.only(children) as React.ReactElement<Record<string, any>>;
    const handlers: Record<string, (event: React.SyntheticEvent) => void> = {};
    const chain = (name: string, fn: () => void) => {
        handlers[name] = (event) => {
            child.props[name]?.(event);
            fn();
        };
    };

    if (trigger === 'hover') {
        chain('onMouseEnter', () => schedule(true, mouseEnterDelay));
        chain('onMouseLeave', () => schedule(false, mouseLeaveDelay));
    }
    if (trigger === 'hover' || trigger === 'focus') {
        chain('onFocus', () => schedule(true, 0));
        chain('onBlur', () => schedule(false, 0));
    }
    if (trigger === 'click') {
        chain('onClick', () => setOpen(!open));
    }

    const isEmpty = content === null || content === undefined || content === '';

    return (
        <>
            {React.cloneElement(child, {
                ...handlers,
                ref: (node: HTMLElement | null) => {
                    triggerRef.current = node;
                },
                'aria-describedby': open && !isEmpty ? tooltipId : child.props['aria-describedby'],
            })}
            {open && !isEmpty ? (
                <Portal getContainer={getPopupContainer}>
                    <div
                        ref={popupRef}
                        id={tooltipId}
                        role="tooltip"
                        className={cls(prefixCls, className, `${prefixCls}-${coords?.placement ?? position}`, {
                            [`${prefixCls}-with-arrow`]: showArrow,
                        })}
                        style={{ ...style, zIndex, position: 'absolute', top: coords?.top ?? -9999, left: coords?.left ?? -9999 }}
                        onMouseEnter={trigger === 'hover' ? () => clearTimeout(timer.current) : undefined}
                        onMouseLeave={trigger === 'hover' ? () => schedule(false, mouseLeaveDelay) : undefined}
                    >
                        {content}
                        {showArrow ? <span className={`${prefixCls}-arrow`} aria-hidden="true" /> : null}
                    </div>
                </Portal>
            ) : null}
        </>
    );
}
