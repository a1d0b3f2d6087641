import React from 'react';
import { render, screen, fireEvent, within, waitFor } from '@testing-library/react';
import Table from '../index';
import type { ColumnProps } from '../index';

interface Person {
    key: string;
    name: string;
    age: number;
    city: string;
}

const data: Person[] = [
    { key: '1', name: 'Ada', age: 36, city: 'London' },
    { key: '2', name: 'Grace', age: 45, city: 'New York' },
    { key: '3', name: 'Linus', age: 28, city: 'Helsinki' },
];

const columns: ColumnProps<Person>[] = [
    { title: 'Name', dataIndex: 'name' },
    { title: 'Age', dataIndex: 'age', sorter: true },
    {
        title: 'City',
        dataIndex: 'city',
        filters: [
            { text: 'London', value: 'London' },
            { text: 'Helsinki', value: 'Helsinki' },
        ],
    },
];

const bodyNames = () =>
    screen
        .getAllByRole('row')
        .filter((row) => row.hasAttribute('data-row-key'))
        .map((row) => within(row).getAllByRole('cell')[0].textContent);

describe('Table', () => {
    it('renders one row per record', () => {
        render(<Table columns={columns} dataSource={data} />);
        expect(bodyNames()).toEqual(['Ada', 'Grace', 'Linus']);
    });

    it('sorts ascending, then descending, then restores the original order', () => {
        render(<Table columns={columns} dataSource={data} />);
        const header = screen.getByRole('columnheader', { name: /age/i });
        fireEvent.click(header);
        expect(bodyNames()).toEqual(['Linus', 'Ada', 'Grace']);
        fireEvent.click(header);
        expect(bodyNames()).toEqual(['Grace', 'Ada', 'Linus']);
        fireEvent.click(header);
        expect(bodyNames()).toEqual(['Ada', 'Grace', 'Linus']);
    });

    it('reports the sorter through onChange', () => {
        const onChange = jest.fn();
        render(<Table columns={columns} dataSource={data} onChange={onChange} />);
        fireEvent.click(screen.getByRole('columnheader', { name: /age/i }));
        expect(onChange).toHaveBeenCalledWith(
            expect.objectContaining({ action: 'sort', sorter: { columnKey: 'age', order: 'ascend' } }),
        );
    });

    it('filters rows with the built-in dropdown', () => {
        render(<Table columns={columns} dataSource={data} />);
        fireEvent.click(screen.getByRole('button', { expanded: false }));
        fireEvent.click(screen.getByLabelText('Helsinki'));
        fireEvent.click(screen.getByText('OK'));
        expect(bodyNames()).toEqual(['Linus']);
    });

    it('selects all rows of the current page', () => {
        const onChange = jest.fn();
        render(<Table columns={columns} dataSource={data} rowSelection={{ onChange }} />);
        fireEvent.click(screen.getByLabelText('Select all rows'));
        expect(onChange).toHaveBeenCalledWith(['1', '2', '3'], data);
    });

    it('skips disabled rows when selecting all', () => {
        const onChange = jest.fn();
        render(
            <Table
                columns={columns}
                dataSource={data}
                rowSelection={{ onChange, getCheckboxProps: (record) => ({ disabled: record.key === '2' }) }}
            />,
        );
        fireEvent.click(screen.getByLabelText('Select all rows'));
        expect(onChange.mock.calls[0][0]).toEqual(['1', '3']);
    });

    it('pages through data', () => {
        const many = Array.from({ length: 25 }, (_, index) => ({ key: String(index), name: `User ${index}`, age: index, city: 'Oslo' }));
        render(<Table columns={columns} dataSource={many} pagination={{ pageSize: 10 }} />);
        expect(bodyNames()).toHaveLength(10);
        fireEvent.click(screen.getByRole('button', { name: '3' }));
        expect(bodyNames()).toHaveLength(5);
    });

    it('shows the empty state', () => {
        render(<Table columns={columns} dataSource={[]} empty="Nothing here" />);
        expect(screen.getByText('Nothing here')).toBeInTheDocument();
    });

    it('loads rows through request', async () => {
        const request = jest.fn().mockResolvedValue({ data: data.slice(0, 2), total: 2 });
        render(<Table columns={columns} request={request} />);
        await waitFor(() => expect(bodyNames()).toEqual(['Ada', 'Grace']));
        expect(request).toHaveBeenCalledWith(
            { currentPage: 1, pageSize: 10, sorters: [], filters: {} },
            expect.any(AbortSignal),
        );
    });

    it('accepts Table.Column children', () => {
        render(
            <Table dataSource={data}>
                <Table.Column title="Name" dataIndex="name" />
                <Table.Column title="City" dataIndex="city" />
            </Table>,
        );
        expect(screen.getAllByRole('columnheader')).toHaveLength(2);
    });
});
