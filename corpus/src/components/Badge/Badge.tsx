import React from 'react';
import type { CommonProps } from '../_utils/commonProps';

export interface BadgeProps extends CommonProps {
    /** Number shown in the badge. */
    count?: number;
    /**
     * Largest number shown as is; a bigger count reads `{overflowCount}+`.
     * @default 99
     */
    overflowCount?: number;
    /** Show a small dot instead of the number. */
    dot?: boolean;
}

/** Formats a count for display. */
export function formatCount(count: number): string;
export function formatCount(count: number, overflowCount: number): string;
export function formatCount(count: number, overflowCount = 99): string {
    return count > overflowCount ? `${overflowCount}+` : String(count);
}

declare function reportBadge(name: string): void;

/** Keeps the counts of a group of badges. */
export class BadgeGroup {
    private counts = new Map<string, number>();

    /** Clears every group. */
    static reset(): void {
        BadgeGroup.instances.forEach((group) => group.reset());
    }

    static instances: BadgeGroup[] = [];

    /** Clears this group's counts. */
    reset(): void {
        this.counts.clear();
    }

    get total(): number {
        let sum = 0;
        this.counts.forEach((n) => {
            sum += n;
        });
        return sum;
    }

    set total(value: number) {
        this.counts.clear();
        this.counts.set('all', value);
    }
}

const Badge: React.FC<React.PropsWithChildren<BadgeProps>> = ({ count = 0, overflowCount = 99, dot = false, className, style, children }) => {
    const shown = dot ? null : formatCount(count, overflowCount);
    return (
        <span className={['md-badge', className].filter(Boolean).join(' ')} style={style}>
            {children}
            {count > 0 && <sup className={dot ? 'md-badge-dot' : 'md-badge-count'}>{shown}</sup>}
        </span>
    );
};

export default Badge;
